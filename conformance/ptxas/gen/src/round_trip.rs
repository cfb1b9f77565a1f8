//! The grammar round trip over every candidate form of the enumeration: each form is written,
//! read back with `tcgen05::ptx_reader`, parsed with `tcgen05::ptx::parse`, and must be the
//! form it was ([`RoundTrip::check`]).

use std::collections::BTreeMap;

use tcgen05::ptx::{is_identifier, parse, Instruction};
use tcgen05::ptx_reader::read;

/// What the round trip found.
#[derive(Debug, Default)]
pub struct RoundTrip {
    /// Check every `stride`-th candidate (1: all of them; 0 counts as 1).
    pub stride: usize,
    /// Candidate forms seen.
    pub seen: usize,
    /// Candidate forms checked.
    pub forms: usize,
    /// Forms of the grammar that parsed back to themselves.
    pub exact: usize,
    /// Forms outside the grammar (a typed form can hold what no text tells apart), by the slot
    /// or operand out of place: their text must not parse back to them.
    pub outside: BTreeMap<&'static str, usize>,
    /// Forms that failed the property, with why (the first 50).
    pub failures: Vec<String>,
    /// How many failed.
    pub failed: usize,
}

/// Every register name the form holds.
fn names<'a>(i: &Instruction<'a>) -> Vec<&'a str> {
    use tcgen05::ptx::OperandName as O;
    const ALL: [O; 19] = [
        O::DTmem,
        O::ADesc,
        O::ATmem,
        O::BDesc,
        O::SparseMetadata,
        O::Idesc,
        O::ScaleA,
        O::ScaleB,
        O::DisableOutputLane,
        O::EnableInputD,
        O::ZeroColumnMask,
        O::Taddr,
        O::Registers,
        O::Redval,
        O::Sdesc,
        O::Dst,
        O::NCols,
        O::Mbar,
        O::CtaMask,
    ];
    let mut out = Vec::new();
    for op in ALL {
        let mut k = 0;
        while let Some(n) = i.operand_text(op, k) {
            out.push(n);
            k += 1;
        }
    }
    out
}

impl RoundTrip {
    fn fail(&mut self, why: String) {
        self.failed += 1;
        if self.failures.len() < 50 {
            self.failures.push(why);
        }
    }

    /// Writes `x`, reads the line back and parses it: a form of the grammar must come back as
    /// `x`; a form outside it must not.
    pub fn check(&mut self, x: &Instruction<'_>) {
        self.seen += 1;
        if !(self.seen - 1).is_multiple_of(self.stride.max(1)) {
            return;
        }
        self.forms += 1;
        let mut line = String::new();
        x.write_unchecked(&mut line).expect("a String never fails");
        let module = read(line.as_bytes());
        let Some(ins) = module
            .functions
            .first()
            .and_then(|f| f.instructions.first())
        else {
            self.fail(format!("{line}: the reader found no instruction"));
            return;
        };
        let parsed = parse(ins);
        let spelled = x.spell();
        let inside = spelled.grammar.conforms(&spelled).and_then(|()| {
            match names(x).into_iter().all(is_identifier) {
                true => Ok(()),
                false => Err("operand name"),
            }
        });
        match (inside, parsed) {
            (Ok(()), Ok(form)) if form.instruction() == *x => self.exact += 1,
            (Ok(()), Ok(form)) => {
                self.fail(format!("{line}: parsed as {:?}", form.instruction()));
            }
            (Ok(()), Err(e)) => self.fail(format!("{line}: refused: {e}")),
            (Err(what), _) => *self.outside.entry(what).or_default() += 1,
        }
    }
}
