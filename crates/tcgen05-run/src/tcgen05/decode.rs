//! Decodes every `tcgen05.*` instruction into its typed form ([`Tcgen05`]) through the core's
//! one grammar ([`tcgen05::ptx::parse`], PTX ISA 9.7.16): the qualifiers come from the parsed
//! form, the operands from the run's resolved operands, matched to the grammar's operand
//! positions by name. A form the run does not execute is refused by name and line.

use tcgen05::emulator::SourceFormat;
use tcgen05::mma::CtaGroup;
use tcgen05::ptx::{
    parse, ASource, CpSourceFormat, Form, FormError, FormRule, Instruction as Ptx, ScaleVec, Wait,
};
use tcgen05::ptx_reader::Instruction;

use super::op::{MmaA, MmaForm, Tcgen05};

use crate::decode::{Resolved, View};
use crate::error::{invalid, unsupported, RunError};
use crate::op::{Addr, OpKind, Src};

/// Decodes `ins`, a `tcgen05` instruction; `v` holds its operands as the run resolved them.
pub(crate) fn decode(ins: &Instruction<'_>, v: &View<'_>) -> Result<OpKind, RunError> {
    let form = parse(ins).map_err(|e| form_error(v.line, &e))?;
    let ops = Operands::of(&form, v)?;
    let t = match form.instruction() {
        Ptx::Alloc(a) => Tcgen05::Alloc {
            group: exclusive(&ops, a.exclusive, a.cta_group)?,
            dst: ops.address("dst")?,
            ncols: ops.src("nCols")?,
        },
        Ptx::Dealloc(d) => Tcgen05::Dealloc {
            group: exclusive(&ops, d.exclusive, d.cta_group)?,
            taddr: ops.src("taddr")?,
            ncols: ops.src("nCols")?,
        },
        Ptx::RelinquishAllocPermit(g) => Tcgen05::Relinquish { group: g },
        Ptx::Commit(c) => Tcgen05::Commit {
            group: restrict(&ops, c.sync_restrict_a, c.cta_group)?,
            mbar: ops.address("mbar")?,
            multicast: ops.optional("ctaMask").map(|r| ops.src_of(r)).transpose()?,
        },
        Ptx::Mma(m) => Tcgen05::Mma(Box::new(mma(&ops, &m)?)),
        Ptx::Load(l) => {
            if l.spcompress.is_some() {
                return Err(unsupported(
                    v.line,
                    "spcompress",
                    "tcgen05.ld.spcompress is not modelled: the PTX ISA text defining it (PTX ISA 9.4 §9.7.18.8.3) was not available",
                ));
            }
            let red = match &l.red {
                Some(r) => {
                    let slot = match ops.registers("redval")?[..] {
                        [slot] => slot,
                        _ => return Err(invalid(v.line, v.text, "redval is one register")),
                    };
                    Some(super::ld_red::decode(v.line, r, slot)?)
                }
                None => None,
            };
            Tcgen05::Ld {
                shape: l.shape,
                num: l.num,
                pack: l.pack,
                regs: ops.registers("r")?,
                taddr: ops.address("taddr")?,
                offset: ops.split_offset()?,
                red,
            }
        }
        Ptx::Store(s) => Tcgen05::St {
            shape: s.shape,
            num: s.num,
            pack: s.unpack,
            regs: ops.registers("r")?.into_iter().map(Src::Reg).collect(),
            taddr: ops.address("taddr")?,
            offset: ops.split_offset()?,
        },
        Ptx::Wait(Wait::Ld) => Tcgen05::WaitLd,
        Ptx::Wait(Wait::St) => Tcgen05::WaitSt,
        Ptx::Fence(f) => Tcgen05::Fence(f),
        Ptx::Cp(c) => Tcgen05::Cp {
            group: c.cta_group,
            shape: c.shape,
            multicast: c.multicast,
            source: c.source_format.map(|f| match f {
                CpSourceFormat::B6x16P32 => SourceFormat::B6x16P32,
                CpSourceFormat::B4x16P64 => SourceFormat::B4x16P64,
            }),
            taddr: ops.address("taddr")?,
            desc: ops.src("s-desc")?,
        },
        Ptx::Shift(s) => Tcgen05::Shift {
            group: s.cta_group,
            taddr: ops.address("taddr")?,
        },
    };
    Ok(OpKind::Tcgen05(t))
}

/// The run's error for a line that is no form of the grammar: an instruction or qualifier the
/// grammar does not know is not modelled; any other break is invalid PTX, with the grammar's
/// message (the rule and its PTX ISA section).
fn form_error(line: u32, e: &FormError<'_>) -> RunError {
    match e.rule {
        FormRule::UnknownInstruction => {
            unsupported(line, e.text, "tcgen05 instruction not modelled by the run")
        }
        FormRule::UnknownQualifier => unsupported(
            line,
            e.text,
            "tcgen05 qualifier not modelled for this instruction",
        ),
        _ => invalid(
            line,
            &e.to_string(),
            "not a form of the tcgen05 grammar (PTX ISA 9.7.16)",
        ),
    }
}

/// The run's resolved operands of one form, by the name of their grammar position.
struct Operands<'r> {
    view: &'r View<'r>,
    named: Vec<(&'static str, &'r Resolved)>,
}

impl<'r> Operands<'r> {
    /// Pairs the form's present operand positions, in grammar order, with the resolved
    /// operands, in text order (the grammar's order is the text's: PTX ISA 9.7.16 syntax).
    fn of(form: &Form<'_>, view: &'r View<'r>) -> Result<Self, RunError> {
        let g = form.grammar();
        let present = g
            .operands
            .iter()
            .zip(form.spelled().operands)
            .filter(|(_, a)| a.is_some())
            .map(|(slot, _)| slot.name);
        let named: Vec<_> = present.zip(&view.operands).collect();
        if named.len() != view.operands.len() {
            return Err(invalid(view.line, view.text, "wrong number of operands"));
        }
        Ok(Operands { view, named })
    }

    fn optional(&self, name: &str) -> Option<&'r Resolved> {
        self.named.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    fn get(&self, name: &str) -> Result<&'r Resolved, RunError> {
        self.optional(name)
            .ok_or_else(|| invalid(self.view.line, self.view.text, "too few operands"))
    }

    fn address(&self, name: &str) -> Result<Addr, RunError> {
        self.address_of(self.get(name)?)
    }

    fn address_of(&self, r: &Resolved) -> Result<Addr, RunError> {
        match r {
            Resolved::Addr(a) if !matches!(a.base, Src::Special(_)) => Ok(*a),
            _ => Err(invalid(
                self.view.line,
                self.view.text,
                "operand must be an address [..]",
            )),
        }
    }

    fn src(&self, name: &str) -> Result<Src, RunError> {
        self.src_of(self.get(name)?)
    }

    /// A register or immediate (special registers are not tcgen05 operands).
    fn src_of(&self, r: &Resolved) -> Result<Src, RunError> {
        match r {
            Resolved::Src(s @ (Src::Reg(_) | Src::Imm(_))) => Ok(*s),
            _ => Err(invalid(
                self.view.line,
                self.view.text,
                "operand must be a register or an immediate",
            )),
        }
    }

    /// The slots of a register vector (a one-register vector resolves as a register).
    fn registers(&self, name: &str) -> Result<Vec<u32>, RunError> {
        match self.get(name)? {
            Resolved::Vector(x) => Ok(x.clone()),
            Resolved::Src(Src::Reg(x)) => Ok(vec![*x]),
            _ => Err(invalid(
                self.view.line,
                self.view.text,
                "a vector of registers expected",
            )),
        }
    }

    /// `immHalfSplitoff` of the `.16x32bx2` shape.
    fn split_offset(&self) -> Result<Option<u32>, RunError> {
        match self.optional("immHalfSplitoff") {
            None => Ok(None),
            Some(Resolved::Src(Src::Imm(x))) => Ok(Some(*x as u32)),
            Some(_) => Err(invalid(
                self.view.line,
                self.view.text,
                "the half-split offset is an immediate",
            )),
        }
    }
}

/// A PTX ISA 9.4 qualifier the run does not execute, refused by name and line: the text that
/// defines it (PTX ISA 9.4 §9.7.18) was not available (docs/ptx-9.5.md, rules.md F3).
fn not_modelled(ops: &Operands<'_>, present: bool, what: &'static str) -> Result<(), RunError> {
    if present {
        return Err(unsupported(
            ops.view.line,
            what,
            "not modelled: the PTX ISA text defining it (PTX ISA 9.4 §9.7.18.10) was not available",
        ));
    }
    Ok(())
}

/// `.cta_group::N` of an alloc or dealloc; `.exclusive` (PTX ISA 9.4) is refused by name.
fn exclusive(ops: &Operands<'_>, exclusive: bool, g: CtaGroup) -> Result<CtaGroup, RunError> {
    not_modelled(ops, exclusive, "exclusive").map(|()| g)
}

/// `.cta_group::N` of a commit; `.sync_restrict::shared::read::mma::a` (PTX ISA 9.4) is refused
/// by name.
fn restrict(ops: &Operands<'_>, restrict: bool, g: CtaGroup) -> Result<CtaGroup, RunError> {
    not_modelled(ops, restrict, "sync_restrict::shared::read::mma::a").map(|()| g)
}

/// `tcgen05.mma` (PTX ISA 9.7.16.10.9): the parsed form's qualifiers, the run's operands.
fn mma(ops: &Operands<'_>, m: &tcgen05::ptx::Mma<'_>) -> Result<MmaForm, RunError> {
    not_modelled(ops, m.ti16, "kind::ti16")?;
    not_modelled(ops, m.decompress_lut.is_some(), "decompress::lut::b")?;
    not_modelled(ops, m.collector_b.is_some(), "collector::b")?;
    let a = ops.get("a-desc")?;
    let last = match (m.scale_input_d, m.zero_column_mask) {
        (Some(_), _) => Some(ops.src("scale-input-d")?),
        (None, Some(_)) => Some(ops.src("zero-column-mask-desc")?),
        (None, None) => None,
    };
    let disable = match m.disable_output_lane {
        Some(_) => Some(
            ops.registers("disable-output-lane")?
                .into_iter()
                .map(Src::Reg)
                .collect(),
        ),
        None => None,
    };
    let scales = match m.block_scale {
        Some(_) => Some((ops.address("scale-A-tmem")?, ops.address("scale-B-tmem")?)),
        None => None,
    };
    Ok(MmaForm {
        group: m.cta_group,
        kind: m.kind,
        ws: m.ws,
        sp: m.sparse_metadata.is_some(),
        block_scale: m.block_scale.is_some(),
        ashift: m.ashift,
        vec: m.block_scale.map_or(ScaleVec::Default, |b| b.vec),
        collector: m.collector,
        d: ops.address("d-tmem")?,
        a: match m.a {
            ASource::Tmem(_) => MmaA::Tmem(ops.address_of(a)?),
            ASource::Smem(_) => MmaA::Smem(ops.src_of(a)?),
        },
        b: ops.src("b-desc")?,
        meta: match m.sparse_metadata {
            Some(_) => Some(ops.address("sp-meta-tmem")?),
            None => None,
        },
        idesc: ops.src("idesc")?,
        scales,
        disable,
        enable: ops.src("enable-input-d")?,
        last,
    })
}
