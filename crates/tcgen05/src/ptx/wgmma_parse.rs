//! Reading a `wgmma` instruction of a PTX file into its typed form by the tables the writer
//! walks ([`crate::ptx::wgmma`]): [`parse_wgmma`].
//!
//! # Examples
//! ```
//! use tcgen05::ptx::{parse_wgmma, Wgmma};
//! use tcgen05::ptx_reader::read;
//!
//! let text = "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r1,%r2,%r3,%r4}, %rd1, %rd2, 1;";
//! let module = read(text.as_bytes());
//! let form = parse_wgmma(&module.functions[0].instructions[0]).unwrap();
//! assert!(matches!(form.instruction(), Wgmma::MmaAsync(m) if m.n == 8 && m.d.len() == 4));
//! let mut line = String::new();
//! form.write(&mut line).unwrap();
//! assert_eq!(line, text);
//! ```

use ::alloc::vec::Vec;
use core::fmt;

use super::form_error::{FormError, FormRule};
use super::grammar::Spelled;
use super::walk::{error, grammar_of, walk, Strict};
use super::wgmma::{Wgmma, WgmmaA, WGMMA_GRAMMARS};
use crate::ptx_reader;

/// A wgmma instruction read from PTX: its typed form ([`WgmmaForm::instruction`]) and its
/// spelling ([`WgmmaForm::spelled`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaForm<'a> {
    /// The form with its register vectors left empty (they live in `regs`).
    shell: Wgmma<'a>,
    spelled: Spelled<'a>,
    /// The elements of `d`, then those of A where A is in registers.
    regs: Vec<&'a str>,
    /// Where A's registers start in `regs`.
    split: usize,
}

impl<'a> WgmmaForm<'a> {
    /// The typed form; its register vector borrows from `self`.
    #[must_use]
    pub fn instruction(&self) -> Wgmma<'_> {
        match self.shell {
            Wgmma::MmaAsync(mut m) => {
                let (d, a) = self.regs.split_at(self.split);
                m.d = d;
                if let WgmmaA::Regs(_) = m.a {
                    m.a = WgmmaA::Regs(a);
                }
                Wgmma::MmaAsync(m)
            }
            other => other,
        }
    }

    /// The spelling as read (its register vectors empty: see [`WgmmaForm::instruction`]).
    #[must_use]
    pub const fn spelled(&self) -> &Spelled<'a> {
        &self.spelled
    }

    /// Writes the form as read, in the grammar's spelling (one line ending in `;`).
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.instruction().write(w)
    }
}

/// Reads `ins` (a `wgmma.*` instruction from [`ptx_reader`]) into its typed form, by the walk
/// of the grammar that reads tcgen05 ([`crate::ptx::parse`]).
///
/// The qualifiers must be those of the form's grammar, each once, in order; the operands those
/// of the form, in order, of the kinds it takes (the trailing immediates of `mma_async` in
/// pairs). Legality (which types go together, N, the immediates' values) is
/// [`crate::ptx::MmaAsync::validate`]'s business. The guard stays in `ins.guard`.
///
/// # Errors
/// The first [`FormError`]: an unknown instruction or qualifier, a qualifier twice, out of
/// order or missing; an operand missing, extra or of the wrong kind.
pub fn parse_wgmma<'a>(ins: &ptx_reader::Instruction<'a>) -> Result<WgmmaForm<'a>, FormError<'a>> {
    let (g, first) = grammar_of(ins, &WGMMA_GRAMMARS, "wgmma", "9.7.15")?;
    let w = walk(g, first, ins, &mut Strict)?;
    let shell = Wgmma::from_spelled(&w.spelled)
        .ok_or_else(|| error(g, FormRule::MissingOperand, "operands", ins.text, None))?;
    Ok(WgmmaForm {
        shell,
        spelled: w.spelled,
        split: w.split.unwrap_or(w.regs.len()),
        regs: w.regs,
    })
}
