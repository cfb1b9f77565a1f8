//! Shared memory descriptors checked on their known bits only.
//!
//! The rules are those of [`SmemDescriptor::decode`] (Tables 40-41, rules.md R1-R5); this
//! module adds only which bits each of its findings reads ([`reads`]). The value is decoded
//! with its unknown bits at zero, and a finding is kept only when every bit it reads is known:
//! its verdict is then the same for every value the unknown bits can take.

use crate::bits::BitField;
use crate::shared_memory_descriptor::{SmemDescriptor, SmemError, SmemField};
use crate::targets::Target;

use super::known_bits::KnownBits;

fn mask(field: SmemField) -> u64 {
    let row: &BitField<SmemField> = field.row();
    row.mask()
}

/// The bits of the descriptor a finding of [`SmemDescriptor::decode`] depends on.
#[must_use]
pub fn reads(e: &SmemError) -> u64 {
    match *e {
        SmemError::ReservedBit { bit } => 1u64.checked_shl(u32::from(bit)).unwrap_or(0),
        SmemError::FixedBits { field, .. } => mask(field),
        SmemError::InvalidSwizzle { .. } => mask(SmemField::Swizzle),
        SmemError::BaseOffsetWithoutSwizzle { .. } => {
            mask(SmemField::BaseOffset) | mask(SmemField::Swizzle)
        }
        SmemError::AbsoluteModeTarget { .. } => mask(SmemField::LboMode),
        SmemError::AbsoluteModeSwizzle { .. } => {
            mask(SmemField::LboMode) | mask(SmemField::Swizzle)
        }
        SmemError::AbsoluteModeBaseOffset { .. } => {
            mask(SmemField::LboMode) | mask(SmemField::BaseOffset)
        }
        // Builder inputs, never found by decoding: they would need every bit.
        SmemError::Misaligned { .. }
        | SmemError::OutOfRange { .. }
        | SmemError::BaseOffsetOutOfRange { .. }
        | SmemError::PatternStartNotLineAligned { .. }
        | SmemError::PatternStartWithoutSwizzle { .. }
        | SmemError::AdvanceMisaligned { .. }
        | SmemError::AdvanceOverflow { .. } => u64::MAX,
    }
}

/// Every problem of [`SmemDescriptor::decode`] that holds whatever the unknown bits of `bits`
/// are, with the bits it reads.
pub fn known_problems(bits: KnownBits, target: Target) -> impl Iterator<Item = (SmemError, u64)> {
    let dec = SmemDescriptor::decode(bits.value & bits.known, target);
    let known = bits.known;
    dec.diagnostics
        .iter()
        .map(|e| (e, reads(&e)))
        .filter(move |(_, r)| r & !known == 0)
        .collect::<alloc::vec::Vec<_>>()
        .into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    proptest! {
        // Soundness of the dependency masks: when every bit a finding reads is known, every
        // completion of the unknown bits gives the same finding (checked against the full
        // decode of a random completion).
        #[test]
        fn reported_findings_hold_for_every_completion(raw in any::<u64>(), known in any::<u64>(), fill in any::<u64>(), t in 0usize..6) {
            let target = Target::ALL[t % Target::ALL.len()];
            let bits = KnownBits { known, value: raw & known };
            let completion = (raw & known) | (fill & !known);
            let full: Vec<SmemError> = SmemDescriptor::decode(completion, target).diagnostics.iter().collect();
            for (e, _) in known_problems(bits, target) {
                prop_assert!(full.contains(&e), "{e:?} not in {full:?}");
            }
            // And with every bit known, the findings are exactly the decode's.
            let all: Vec<SmemError> = known_problems(KnownBits { known: !0, value: raw }, target).map(|p| p.0).collect();
            let dec: Vec<SmemError> = SmemDescriptor::decode(raw, target).diagnostics.iter().collect();
            prop_assert_eq!(all, dec);
        }
    }

    #[test]
    fn triton_high_word_with_unknown_address_is_clean() {
        // mov.b32 %r311, 1073758272 (0x40004040); low word = bfe.u32(addr, 4, 15): bits 15-31
        // known zero, 0-14 unknown.
        let bits = KnownBits {
            known: 0xffff_ffff_ffff_8000,
            value: 0x4000_4040_0000_0000,
        };
        assert_eq!(known_problems(bits, Target::Sm100a).count(), 0);
        // Bit 46 cleared: the fixed bits are known and wrong.
        let bad = KnownBits {
            value: bits.value & !(1 << 46),
            ..bits
        };
        let p: Vec<_> = known_problems(bad, Target::Sm100a).collect();
        assert!(matches!(
            p[0].0,
            SmemError::FixedBits {
                field: SmemField::Fixed46To48,
                found: 0
            }
        ));
        // Bit 14 (reserved) unknown: never reported.
        let r = KnownBits { known: 0, value: 0 };
        assert!(known_problems(r, Target::Sm100a)
            .all(|(e, _)| !matches!(e, SmemError::ReservedBit { .. })));
    }
}
