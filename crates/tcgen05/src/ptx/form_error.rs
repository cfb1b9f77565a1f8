//! Why a line is no tcgen05 form of the grammar ([`crate::ptx::syntax`]): [`FormError`].

use core::fmt;

use super::grammar::Shape;

/// The grammar rule a line breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormRule {
    /// The opcode names no tcgen05 instruction.
    UnknownInstruction,
    /// A qualifier no slot of the form spells.
    UnknownQualifier,
    /// A slot written twice.
    DuplicateQualifier,
    /// A qualifier after one that the syntax puts after it.
    QualifierOrder {
        /// The slot already written that comes later in the syntax.
        after: &'static str,
    },
    /// A required slot not written.
    MissingQualifier,
    /// A slot written without the one it goes with.
    QualifierNeeds {
        /// The slot it needs.
        needs: &'static str,
    },
    /// A value of a slot that another slot's presence rules out (`.b32` with `.red`).
    QualifierExcludes {
        /// The slot whose presence rules it out.
        with: &'static str,
    },
    /// An operand the form needs is not there.
    MissingOperand,
    /// An operand of the wrong kind.
    OperandShape {
        /// What the position holds.
        expected: Shape,
    },
    /// More operands than the form has.
    ExtraOperand,
    /// An immediate larger than the operand holds.
    ImmediateTooWide {
        /// The largest it holds.
        max: u64,
    },
}

/// A line that is no form of the grammar: the slot or operand, the text as written, the rule
/// and the PTX ISA section that gives the syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormError<'a> {
    /// The rule.
    pub rule: FormRule,
    /// The form (`"tcgen05.mma"`), or `"tcgen05"` (`"wgmma"`) when the instruction is unknown.
    pub form: &'static str,
    /// The qualifier slot or operand position (`"kind"`, `"idesc"`).
    pub what: &'static str,
    /// The qualifier or operand as written; empty for something missing.
    pub text: &'a str,
    /// The operand's index (from 0) for operand rules.
    pub operand: Option<usize>,
    /// The PTX ISA section of the form's syntax.
    pub section: &'static str,
}

impl fmt::Display for FormError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (form, what, text) = (self.form, self.what, self.text);
        match self.rule {
            FormRule::UnknownInstruction => write!(f, "`{text}` is no {form} instruction")?,
            FormRule::UnknownQualifier => write!(f, "{form}: unknown qualifier `.{text}`")?,
            FormRule::DuplicateQualifier => {
                write!(
                    f,
                    "{form}: the {what} qualifier is written twice (`.{text}`)"
                )?;
            }
            FormRule::QualifierOrder { after } => write!(
                f,
                "{form}: the {what} qualifier `.{text}` must come before the {after} qualifier"
            )?,
            FormRule::MissingQualifier => write!(f, "{form}: the {what} qualifier is missing")?,
            FormRule::QualifierNeeds { needs } => {
                write!(f, "{form}: `.{text}` ({what}) needs the {needs} qualifier")?;
            }
            FormRule::QualifierExcludes { with } => {
                write!(
                    f,
                    "{form}: `.{text}` ({what}) does not go with the {with} qualifier"
                )?;
            }
            FormRule::MissingOperand => write!(f, "{form}: operand {what} is missing")?,
            FormRule::OperandShape { expected } => write!(
                f,
                "{form}: operand {what} must be {} in `{text}`",
                expected.describe()
            )?,
            FormRule::ExtraOperand => write!(f, "{form}: more operands than the form has")?,
            FormRule::ImmediateTooWide { max } => {
                write!(f, "{form}: operand {what} is larger than {max}")?;
            }
        }
        write!(f, " (PTX ISA {})", self.section)
    }
}
