//! `tcgen05.ld.red` in a run (PTX ISA 9.7.16.8.3): the load of `tcgen05.ld`, and "the
//! reduction operation specified by `.redOp` ... performed on the data that is loaded across
//! columns in each lane", its result in the thread's `redval`. The text defines that arithmetic
//! completely for the integer types (`.u32`, `.s32`: the minimum or maximum of the thread's
//! loaded words read as unsigned or two's-complement integers), and the run executes those. For
//! `.f32` it names `.abs` and `.NaN` without defining them and says nothing of NaN inputs or the
//! order of -0 and +0; the core emulator's reading of those is the project's ruling (rules.md
//! E8), not the text, so a run refuses the `.f32` forms by name.

use tcgen05::ptx::{RedOp, RedType, Reduction};

use crate::error::{unsupported, RunError};

/// The integer reduction of a `tcgen05.ld.red`, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntReduction {
    /// `.max` (else `.min`).
    pub max: bool,
    /// `.s32` (else `.u32`).
    pub signed: bool,
    /// The slot of `redval`.
    pub redval: u32,
}

/// The run's form of `red` (whose `redval` is the register in slot `redval`): the integer
/// types; `.f32` is refused by name at `line` (see the module's documentation).
pub(super) fn decode(
    line: u32,
    red: &Reduction<'_>,
    redval: u32,
) -> Result<IntReduction, RunError> {
    let signed = match red.ty {
        RedType::U32 => false,
        RedType::S32 => true,
        RedType::F32 => {
            return Err(unsupported(
                line,
                "red.f32",
                "tcgen05.ld.red .f32 is not executed: PTX ISA 9.7.16.8.3 does not define its NaN, signed-zero, .abs and .NaN arithmetic (the emulator's reading is the ruling rules.md E8); the .u32 and .s32 forms run",
            ))
        }
    };
    Ok(IntReduction {
        max: red.op == RedOp::Max,
        signed,
        redval,
    })
}

/// The reduction of one thread's loaded words (at least two: `.num` is `.x2` or more).
#[must_use]
pub fn reduce(r: &IntReduction, words: &[u32]) -> u32 {
    let key = |w: &u32| {
        if r.signed {
            i64::from(*w as i32)
        } else {
            i64::from(*w)
        }
    };
    let pick = if r.max {
        words.iter().max_by_key(|w| key(w))
    } else {
        words.iter().min_by_key(|w| key(w))
    };
    pick.copied().unwrap_or(0)
}
