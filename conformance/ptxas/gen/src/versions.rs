//! The PTX ISA versions every form is certified at, and the sample of them `run.sh --check`
//! assembles again.
//!
//! A form is enumerated at the lowest version that suits it on its target (its `.version`
//! written by the builders) and again at every later PTX ISA version up to 9.5, the newest
//! ptxas 13.5.37 reads (`.version 9.6` is refused: "Unsupported .version 9.6; current version
//! is '9.5'"). The versions are those of PTX ISA 9.4 §13 Table 71 from 8.6 on, the first with
//! tcgen05, plus 9.5: 8.6, 8.7, 8.8, 9.0, 9.1, 9.2, 9.3, 9.4, 9.5 (there is no PTX ISA 8.9).
//!
//! `run.sh` (regenerating `verdicts.tsv.gz`) assembles every (form, target, version);
//! `run.sh --check` (CI) assembles every form at its lowest version and one in
//! [`CHECK_SAMPLE`] of the forms at a later version, chosen by a hash of the form's id, so that
//! CI stays within its time. The unit test `every_form_has_its_committed_verdict` compares the
//! builders' verdict of every form at every version with the committed file, without ptxas.

/// Every PTX ISA version a form is certified at, ascending (major * 10 + minor).
pub const VERSIONS: [u8; 9] = [86, 87, 88, 90, 91, 92, 93, 94, 95];

/// The newest PTX ISA version ptxas 13.5.37 reads.
pub const NEWEST: u8 = 95;

/// `run.sh --check` assembles one in this many of the forms enumerated above their lowest
/// version.
pub const CHECK_SAMPLE: u64 = 12;

/// The versions after `v`, ascending.
pub fn later(v: u8) -> impl Iterator<Item = u8> {
    VERSIONS.into_iter().filter(move |&w| w > v)
}

/// True when the form `id` (see `verdicts::form_id`) is in the sample of one in `every`.
pub fn sampled(id: &str, every: u64) -> bool {
    let h = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    every <= 1 || h % every == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_versions_and_the_sample() {
        assert_eq!(
            later(86).collect::<Vec<_>>(),
            [87, 88, 90, 91, 92, 93, 94, 95]
        );
        assert_eq!(later(94).collect::<Vec<_>>(), [95]);
        assert_eq!(later(95).count(), 0);
        assert_eq!(*VERSIONS.last().expect("versions"), NEWEST);
        let ids: Vec<String> = (0..12_000)
            .map(|i| format!("sm_100a\t95\tform {i}"))
            .collect();
        let n = ids.iter().filter(|id| sampled(id, CHECK_SAMPLE)).count();
        // About one in twelve: a broken hash (always or never true) fails here.
        assert!((800..1200).contains(&n), "{n}");
        assert!(ids.iter().all(|id| sampled(id, 1)));
    }
}
