//! [`SmemDiagnostics`]: the problems of a decoded shared memory descriptor (Tables 40-41,
//! rules.md R1-R5), kept as the set of checks the raw value fails.

use super::descriptor::SmemDescriptor;
use super::error::{SmemError, SmemRule};
use super::fields::{LboMode, Swizzle};
use super::{SmemProblemList, SMEM_LAYOUT};
use crate::bits::Role;
use crate::diagnostic::problem_set;
use crate::diagnostic::Severity;
use crate::targets::Target;

/// One check of a raw value that reads bits straight from [`SMEM_LAYOUT`]: a reserved bit
/// (rules.md R2) or a fixed row (R1).
#[derive(Clone, Copy)]
enum RawCheck {
    /// This bit must be zero.
    Reserved(u8),
    /// The row at this index of [`SMEM_LAYOUT`] must hold its constant.
    Fixed(usize),
}

/// How many raw checks [`SMEM_LAYOUT`] has: one per reserved bit and one per fixed row.
const RAW_CHECKS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < SMEM_LAYOUT.len() {
        n += match SMEM_LAYOUT[i].role {
            Role::Reserved => SMEM_LAYOUT[i].width as usize,
            Role::Fixed(_) => 1,
            Role::Value => 0,
        };
        i += 1;
    }
    n
};

/// The raw checks in the order the problems are reported: by bit, as [`SMEM_LAYOUT`] lists its
/// rows.
const CHECKS: [RawCheck; RAW_CHECKS] = {
    let mut out = [RawCheck::Reserved(0); RAW_CHECKS];
    let mut n = 0;
    let mut i = 0;
    while i < SMEM_LAYOUT.len() {
        let row = &SMEM_LAYOUT[i];
        match row.role {
            Role::Reserved => {
                let mut bit = row.lo;
                while bit <= row.hi() {
                    out[n] = RawCheck::Reserved(bit);
                    n += 1;
                    bit += 1;
                }
            }
            Role::Fixed(_) => {
                out[n] = RawCheck::Fixed(i);
                n += 1;
            }
            Role::Value => {}
        }
        i += 1;
    }
    out
};

/// Positions in the set after the raw checks, one per rule that reads decoded fields, in the
/// order reported: the swizzle code (Table 40), then the combinations of
/// [`check_combination`] (R4, R5).
mod at {
    use super::RAW_CHECKS;
    pub const SWIZZLE: u32 = RAW_CHECKS as u32;
    pub const BASE_OFFSET_WITHOUT_SWIZZLE: u32 = SWIZZLE + 1;
    pub const ABSOLUTE_TARGET: u32 = SWIZZLE + 2;
    pub const ABSOLUTE_SWIZZLE: u32 = SWIZZLE + 3;
    pub const ABSOLUTE_BASE_OFFSET: u32 = SWIZZLE + 4;
    /// One past the last position.
    pub const END: u32 = SWIZZLE + 5;
}

// Every position fits the set's 32 bits.
const _: () = assert!(at::END <= 32);

/// The rule checked at a position of the set.
const fn rule_at(position: u32) -> SmemRule {
    if position < at::SWIZZLE {
        return match CHECKS[position as usize] {
            RawCheck::Reserved(_) => SmemRule::ReservedBit,
            RawCheck::Fixed(_) => SmemRule::FixedBits,
        };
    }
    match position - at::SWIZZLE {
        0 => SmemRule::InvalidSwizzle,
        1 => SmemRule::BaseOffsetWithoutSwizzle,
        2 => SmemRule::AbsoluteModeTarget,
        3 => SmemRule::AbsoluteModeSwizzle,
        _ => SmemRule::AbsoluteModeBaseOffset,
    }
}

/// The positions whose rule is a warning, read from [`SMEM_RULES`].
const WARNINGS: u32 = {
    let mut mask = 0;
    let mut p = 0;
    while p < at::END {
        if let Severity::Warning = rule_at(p).row().severity {
            mask |= 1 << p;
        }
        p += 1;
    }
    mask
};

#[inline(always)]
const fn flag(broken: bool, position: u32) -> u32 {
    (broken as u32) << position
}

/// The set of checks `raw` fails for `target`.
#[inline]
pub(super) const fn problem_set(raw: u64, target: Target) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < RAW_CHECKS {
        let broken = match CHECKS[i] {
            RawCheck::Reserved(bit) => (raw >> bit) & 1 != 0,
            RawCheck::Fixed(row) => match SMEM_LAYOUT[row].role {
                Role::Fixed(v) => SMEM_LAYOUT[row].get(raw) != v,
                _ => false,
            },
        };
        set |= flag(broken, i as u32);
        i += 1;
    }
    let word = SmemDescriptor::from_bits_unchecked(raw);
    let code = word.swizzle_code();
    let base_offset = word.base_offset();
    set |= flag(Swizzle::from_code(code).is_err(), at::SWIZZLE);
    set |= flag(
        base_offset != 0 && code == Swizzle::None.code(),
        at::BASE_OFFSET_WITHOUT_SWIZZLE,
    );
    if let LboMode::Absolute = word.lbo_mode() {
        set |= flag(!target.supports_absolute_lbo(), at::ABSOLUTE_TARGET);
        set |= flag(code != Swizzle::B128.code(), at::ABSOLUTE_SWIZZLE);
        set |= flag(base_offset != 0, at::ABSOLUTE_BASE_OFFSET);
    }
    set
}

/// The problem at a position of the set, built from the raw value.
const fn problem_at(raw: u64, target: Target, position: u32) -> SmemError {
    if position < at::SWIZZLE {
        return match CHECKS[position as usize] {
            RawCheck::Reserved(bit) => SmemError::ReservedBit { bit },
            RawCheck::Fixed(row) => SmemError::FixedBits {
                field: SMEM_LAYOUT[row].field,
                // Fixed rows are at most 8 bits wide, so the cast keeps every bit.
                found: SMEM_LAYOUT[row].get(raw) as u8,
            },
        };
    }
    let word = SmemDescriptor::from_bits_unchecked(raw);
    let code = word.swizzle_code();
    let base_offset = word.base_offset();
    match position - at::SWIZZLE {
        0 => SmemError::InvalidSwizzle { code },
        1 => SmemError::BaseOffsetWithoutSwizzle { value: base_offset },
        2 => SmemError::AbsoluteModeTarget { target },
        3 => SmemError::AbsoluteModeSwizzle { code },
        _ => SmemError::AbsoluteModeBaseOffset { value: base_offset },
    }
}

problem_set! {
    /// Every problem of a decoded shared memory descriptor, kept as the set of checks it fails.
    ///
    /// Reading the list ([`SmemDiagnostics::iter`], [`SmemDiagnostics::get`]) builds each
    /// [`SmemError`] from the raw value, so decoding builds no list. The problems come in bit
    /// order: reserved bits and fixed rows as [`SMEM_LAYOUT`] lists them (R1, R2), the swizzle code
    /// (Table 40), then the rules that tie fields together (R4, R5).
    /// [`SmemDiagnostics::to_list`] gives them as a [`Diagnostics`](super::Diagnostics) list.
    set SmemDiagnostics, iterator SmemProblems, bits u32;
    context { raw: u64, target: Target }
    problem SmemError, list SmemProblemList, warnings WARNINGS, built by problem_at;
}

impl SmemDiagnostics {
    /// The problems of `raw` for `target`.
    #[must_use]
    pub const fn of(raw: u64, target: Target) -> SmemDiagnostics {
        SmemDiagnostics {
            raw,
            target,
            set: problem_set(raw, target),
        }
    }

    /// True when one of the problems breaks `rule`.
    #[must_use]
    pub const fn breaks(&self, rule: SmemRule) -> bool {
        let mut set = self.set;
        while set != 0 {
            if rule_at(set.trailing_zeros()) as u8 == rule as u8 {
                return true;
            }
            set &= set - 1;
        }
        false
    }
}
