//! Reading an opcode's qualifiers into the slots of its grammar, in the grammar's order: the
//! one rule the tcgen05 reader ([`crate::ptx::parse`]) and the wgmma reader
//! ([`crate::ptx::wgmma`]) share (PTX ISA 9.7.16 and 9.7.15 give each form's qualifiers in a
//! fixed order).

use super::form_error::FormRule;
use super::grammar::Slot;
use super::wgmma::WgmmaSlot;

/// A qualifier slot as the reader sees it.
pub(crate) trait QualifierSlot {
    /// What the slot is, as errors name it.
    fn slot_name(&self) -> &'static str;
    /// The value `text` (a qualifier without its dot) spells, if any.
    fn value(&self, text: &str) -> Option<u16>;
}

impl QualifierSlot for Slot {
    fn slot_name(&self) -> &'static str {
        self.name
    }

    fn value(&self, text: &str) -> Option<u16> {
        self.value_of(text)
    }
}

impl QualifierSlot for WgmmaSlot {
    fn slot_name(&self) -> &'static str {
        self.name
    }

    fn value(&self, text: &str) -> Option<u16> {
        self.value_of(text)
    }
}

/// Puts each qualifier of `quals` (those after the first slot, which the caller matched) in
/// the first later slot that spells it, writing its value to `values`.
///
/// # Errors
/// The rule, the slot's name and the qualifier as written, for a qualifier whose slot is
/// already written (twice), comes earlier in the grammar (out of order) or that no slot spells.
pub(crate) fn read_in_order<'a, S: QualifierSlot>(
    slots: &[S],
    quals: impl Iterator<Item = &'a str>,
    values: &mut [Option<u16>],
) -> Result<(), (FormRule, &'static str, &'a str)> {
    let mut next = 1;
    for q in quals {
        let later = (next..slots.len()).find_map(|j| slots[j].value(q).map(|v| (j, v)));
        if let Some((j, v)) = later {
            values[j] = Some(v);
            next = j + 1;
            continue;
        }
        let earlier = (0..next).find(|&j| slots[j].value(q).is_some());
        return Err(match earlier {
            Some(j) if values[j].is_some() => {
                (FormRule::DuplicateQualifier, slots[j].slot_name(), q)
            }
            Some(j) => (
                FormRule::QualifierOrder {
                    after: slots[next - 1].slot_name(),
                },
                slots[j].slot_name(),
                q,
            ),
            None => (FormRule::UnknownQualifier, "qualifier", q),
        });
    }
    Ok(())
}
