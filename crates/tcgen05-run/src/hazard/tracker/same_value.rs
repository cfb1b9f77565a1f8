//! Unordered writes of the same value (rules.md I11): a generic write of a byte that is not
//! ordered after the byte's last write is not reported as a data race when both are generic
//! `st`s whose values are known and the byte they store is the same. Reads are unaffected: a
//! read not ordered with either write is still a race (it may see the byte's earlier value).
//!
//! Evidence: the PTX memory consistency model (PTX ISA 8) does not make a racy program
//! undefined: a read returns the value of some write it may observe, so two writes of the
//! same bytes leave the same bytes whichever comes last; Triton 3.9.0's warp-specialised
//! kernels store one dispatch word from every warp this way (`triton_dot_f16_ws_*`, line 164).

use crate::observe::{Access, Proxy};

/// The bytes of the access `a`, when it is a generic write whose value the run reported just
/// before it (`bytes`, from [`crate::observe::Event::StoreBytes`]) with its size.
pub(super) fn stored(bytes: Option<Vec<u8>>, a: &Access) -> Option<Vec<u8>> {
    bytes.filter(|b| a.write && a.proxy == Proxy::Generic && b.len() == a.size as usize)
}

/// Whether a byte's last write stored `before` and this write stores `now`, both known and
/// equal: no race between the two writes is reported.
pub(super) fn same(before: Option<u8>, now: Option<u8>) -> bool {
    matches!((before, now), (Some(x), Some(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::super::Tracker;
    use crate::hazard::HazardKind;
    use crate::observe::{Access, Event, Observer, Proxy, Space};

    /// Thread `thread` of one warp or another stores `bytes` (or bytes not reported) to shared
    /// 64..68 at `line`; the findings' kinds.
    fn stores(writes: &[(u32, u32, Option<[u8; 4]>)], read: Option<u32>) -> Vec<HazardKind> {
        let mut t = Tracker::default();
        t.event(&Event::CtaStart {
            cta: 0,
            threads: 96,
        });
        for &(thread, line, bytes) in writes {
            if let Some(b) = bytes {
                t.event(&Event::StoreBytes { bytes: &b });
            }
            t.access(&Access {
                space: Space::Shared,
                address: 64,
                size: 4,
                write: true,
                line,
                thread,
                proxy: Proxy::Generic,
            });
        }
        if let Some(thread) = read {
            t.access(&Access {
                space: Space::Shared,
                address: 64,
                size: 4,
                write: false,
                line: 30,
                thread,
                proxy: Proxy::Generic,
            });
        }
        t.findings.iter().map(|f| f.kind).collect()
    }

    const WORD: [u8; 4] = [1, 1, 0, 2];

    #[test]
    fn unordered_writes_of_the_same_bytes_are_not_a_race() {
        // Three warps store one word, as Triton's warp-specialised kernels do.
        let w = [
            (0, 10, Some(WORD)),
            (32, 10, Some(WORD)),
            (64, 10, Some(WORD)),
        ];
        assert_eq!(stores(&w, None), vec![]);
    }

    #[test]
    fn different_bytes_or_unknown_bytes_still_race() {
        let mut other = WORD;
        other[3] = 3;
        let differ = [(0, 10, Some(WORD)), (32, 11, Some(other))];
        assert_eq!(stores(&differ, None), vec![HazardKind::DataRace]);
        let unknown = [(0, 10, Some(WORD)), (32, 11, None)];
        assert_eq!(stores(&unknown, None), vec![HazardKind::DataRace]);
        let unknown_first = [(0, 10, None), (32, 11, Some(WORD))];
        assert_eq!(stores(&unknown_first, None), vec![HazardKind::DataRace]);
    }

    #[test]
    fn a_read_unordered_with_the_writes_still_races() {
        let w = [(0, 10, Some(WORD)), (32, 10, Some(WORD))];
        assert_eq!(stores(&w, Some(64)), vec![HazardKind::DataRace]);
    }

    /// A reported value whose length is not the access's is not used.
    #[test]
    fn bytes_of_another_size_are_ignored() {
        let mut t = Tracker::default();
        t.event(&Event::CtaStart {
            cta: 0,
            threads: 64,
        });
        for thread in [0, 32] {
            t.event(&Event::StoreBytes { bytes: &[1, 2] });
            t.access(&Access {
                space: Space::Shared,
                address: 64,
                size: 4,
                write: true,
                line: 10,
                thread,
                proxy: Proxy::Generic,
            });
        }
        assert_eq!(t.findings.len(), 1);
    }
}
