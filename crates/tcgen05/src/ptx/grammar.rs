//! The grammar of a tcgen05 or wgmma instruction form as data: its qualifier slots (spellings, whether
//! required, which PTX ISA version and target introduced each) and its operands, in the order
//! PTX writes them. One [`Grammar`] per form is the single statement of its syntax: the
//! writer ([`write_spelled`]) and the reader ([`crate::ptx::parse`]) both walk it, and the
//! lowest PTX ISA version of a written form is read from it ([`Grammar::min_version`]).
//! The wgmma forms (Hopper, PTX ISA 9.7.15) are tables of the same kind
//! ([`crate::ptx::wgmma`]), read by the same walk ([`crate::ptx::parse_wgmma`]).
//!
//! The typed forms ([`crate::ptx::Mma`], ...) map to and from a [`Spelled`] (which spelling of
//! each slot, which operands); the tables themselves are in [`crate::ptx::syntax`]. The
//! introducing versions and targets are those of PTX ISA 9.7.16's target notes and of the
//! release notes (PTX ISA 13, versions 8.6-8.8).

use core::fmt;

use super::Syntax;
use crate::targets::Target;

/// The target that introduced a spelling: a tcgen05 target, or Hopper's `sm_90a`, which
/// introduced wgmma (PTX ISA 9.7.15 target notes) and has no tcgen05.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// `sm_90a` (H100, H200): wgmma.
    Sm90a,
    /// A tcgen05 target.
    Tcgen05(Target),
}

impl Arch {
    /// The target's PTX name (`"sm_90a"`, `"sm_100a"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm90a => "sm_90a",
            Arch::Tcgen05(t) => t.name(),
        }
    }
}

/// The PTX ISA version and the target that introduced a spelling (PTX ISA 9.7.16 and 9.7.15
/// target notes; PTX ISA 13 release notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Since {
    /// PTX ISA version, major * 10 + minor (86 for 8.6).
    pub ptx: u8,
    /// The first target that had it.
    pub target: Arch,
}

impl Since {
    /// PTX ISA `ptx` on tcgen05 target `target`.
    pub(crate) const fn tcgen05(ptx: u8, target: Target) -> Since {
        Since {
            ptx,
            target: Arch::Tcgen05(target),
        }
    }
}

/// tcgen05 as PTX ISA 8.6 introduced it, on `sm_100a` (and `sm_101a`, now `sm_110a`).
pub const PTX86: Since = Since::tcgen05(86, Target::Sm100a);

/// A qualifier slot: one dot-separated qualifier position of the opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// What the slot is, as errors name it (`"kind"`, `"cta_group"`, ...).
    pub name: &'static str,
    /// Text before each value, with the leading dot (`".kind::"`), or `""` where each value
    /// has its own dot.
    pub prefix: &'static str,
    /// The spellings, each after [`Slot::prefix`]; value `i` of a [`Spelled`] is `values[i]`.
    pub values: &'static [&'static str],
    /// Values spelled by a pattern after the fixed ones (`.collector::bN::op`, wgmma's
    /// `.m64nNkK`).
    pub family: Option<Family>,
    /// The form has no spelling without it.
    pub required: bool,
    /// The slot that must be present for this one to be (`.scale_vec` needs `.block_scale`).
    pub needs: Option<usize>,
    /// Where the slot came from, for every value not in [`Slot::later`].
    pub since: Since,
    /// Values introduced later than [`Slot::since`]: (value, since).
    pub later: &'static [(u16, Since)],
}

impl Slot {
    /// A required slot of one spelling (`.sync`, `.aligned`).
    pub(crate) const fn fixed(name: &'static str, spelling: &'static [&'static str]) -> Slot {
        Slot {
            name,
            prefix: "",
            values: spelling,
            family: None,
            required: true,
            needs: None,
            since: PTX86,
            later: &[],
        }
    }

    /// An optional slot of one spelling (`.ws`, `.ashift`).
    pub(crate) const fn flag(name: &'static str, spelling: &'static [&'static str]) -> Slot {
        Slot {
            required: false,
            ..Slot::fixed(name, spelling)
        }
    }

    /// With every value introduced by `since`.
    pub(crate) const fn with_since(mut self, since: Since) -> Slot {
        self.since = since;
        self
    }

    /// A required slot of several spellings after `prefix`.
    pub(crate) const fn one_of(
        name: &'static str,
        prefix: &'static str,
        values: &'static [&'static str],
    ) -> Slot {
        Slot {
            prefix,
            values,
            ..Slot::fixed(name, values)
        }
    }

    /// When value `v` was introduced.
    #[must_use]
    pub const fn since_of(&self, v: u16) -> Since {
        let mut i = 0;
        while i < self.later.len() {
            if self.later[i].0 == v {
                return self.later[i].1;
            }
            i += 1;
        }
        self.since
    }

    /// Writes value `v` of the slot, with its leading dot.
    ///
    /// # Errors
    /// When the writer fails.
    pub fn write_value<W: fmt::Write>(&self, w: &mut W, v: u16) -> fmt::Result {
        let fixed = self.values.len();
        let v = usize::from(v);
        if v < fixed {
            return write!(w, "{}{}", self.prefix, self.values[v]);
        }
        match self.family {
            Some(Family::Numbered(ops)) => {
                let n = (v - fixed) / ops.len();
                write!(w, "{}b{n}::{}", self.prefix, ops[(v - fixed) % ops.len()])
            }
            Some(Family::Shape { m, ks }) => {
                let (n, k) = Family::shape_of(ks, v - fixed);
                write!(w, "{}m{m}n{n}k{k}", self.prefix)
            }
            None => write!(w, "{}?", self.prefix),
        }
    }

    /// The value `text` (a qualifier as the reader gives it, without its leading dot) spells,
    /// if any.
    #[must_use]
    pub fn value_of(&self, text: &str) -> Option<u16> {
        self.value_after_prefix(strip_dotted(text, self.prefix)?)
    }

    /// The value `rest` spells after the slot's prefix (`"a::fill"` of `.collector::a::fill`;
    /// for a slot without prefix, the whole qualifier without its dot), if any.
    #[must_use]
    pub fn value_after_prefix(&self, rest: &str) -> Option<u16> {
        for (i, v) in self.values.iter().enumerate() {
            let v = if self.prefix.is_empty() {
                v.strip_prefix('.').unwrap_or(v)
            } else {
                v
            };
            if v == rest {
                return u16::try_from(i).ok();
            }
        }
        let fixed = self.values.len();
        let ops = match self.family? {
            Family::Numbered(ops) => ops,
            Family::Shape { m, ks } => {
                let v = Family::shape_value_of(m, ks, rest)?;
                return u16::try_from(fixed + usize::from(v)).ok();
            }
        };
        let (n, op) = rest.strip_prefix('b')?.split_once("::")?;
        if n.is_empty()
            || !n.bytes().all(|c| c.is_ascii_digit())
            || (n.len() > 1 && n.starts_with('0'))
        {
            return None;
        }
        let n: u8 = n.parse().ok()?;
        let op = ops.iter().position(|o| *o == op)?;
        u16::try_from(fixed + usize::from(n) * ops.len() + op).ok()
    }
}

/// Values of a slot spelled by a pattern, numbered after the slot's fixed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `.collector::bN::op`: `prefix + "b" + N + "::" + op` for any byte N (the typed form
    /// holds any N; validation keeps N to 0-3); value `N * ops.len() + op`.
    Numbered(&'static [&'static str]),
    /// `.mMnNkK` (wgmma): N a multiple of 8 from 8 to 256, K one of `ks`; value
    /// `32 * (index of K) + N / 8 - 1`.
    Shape {
        /// M.
        m: u16,
        /// The K values, in value order.
        ks: &'static [u16],
    },
}

impl Family {
    /// N and K of value `v` of a [`Family::Shape`] with `ks` (K 0 past the list).
    #[must_use]
    pub const fn shape_of(ks: &[u16], v: usize) -> (u16, u16) {
        let k = if v / 32 < ks.len() { ks[v / 32] } else { 0 };
        (8 * (v % 32 + 1) as u16, k)
    }

    /// The value of `N`, `K` in a [`Family::Shape`] with `ks`, if it spells them.
    #[must_use]
    pub const fn shape_value(ks: &[u16], n: u16, k: u16) -> Option<u16> {
        if n == 0 || n % 8 != 0 || n > 256 {
            return None;
        }
        let mut i = 0;
        while i < ks.len() {
            if ks[i] == k {
                return Some(i as u16 * 32 + n / 8 - 1);
            }
            i += 1;
        }
        None
    }

    /// The value `mMnNkK` (as written, digits without leading zeros) spells.
    fn shape_value_of(m: u16, ks: &[u16], text: &str) -> Option<u16> {
        let (tm, rest) = text.strip_prefix('m')?.split_once('n')?;
        let (n, k) = rest.split_once('k')?;
        let canonical =
            |t: &str| !t.is_empty() && !t.starts_with('0') && t.bytes().all(|c| c.is_ascii_digit());
        if !canonical(tm) || !canonical(n) || !canonical(k) || tm.parse::<u16>().ok()? != m {
            return None;
        }
        Family::shape_value(ks, n.parse().ok()?, k.parse().ok()?)
    }
}

/// `text` without `prefix` (whose leading dot `text` does not have); all of `text` for an
/// empty prefix.
fn strip_dotted<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    if prefix.is_empty() {
        return Some(text);
    }
    text.strip_prefix(prefix.strip_prefix('.').unwrap_or(prefix))
}

/// What an operand position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A register or variable name.
    Reg,
    /// `[name]`: a Tensor Memory or shared memory address in a register or variable.
    Addr,
    /// Either `name` or `[name]` (matrix A of `tcgen05.mma`: `a-desc` or `[a-tmem]`).
    RegOrAddr,
    /// A register vector `{r0, r1, ...}`.
    Vector,
    /// An integer immediate.
    Imm,
    /// A register or an integer immediate.
    RegOrImm,
    /// A register or a register vector (matrix A of `wgmma.mma_async`: `a-desc` or `{a}`).
    RegOrVector,
}

impl Shape {
    /// What the shape is, for messages.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Shape::Reg => "a register",
            Shape::Addr => "an address [name]",
            Shape::RegOrAddr => "a register or an address [name]",
            Shape::Vector => "a register vector {...}",
            Shape::Imm => "an integer immediate",
            Shape::RegOrImm => "a register or an integer immediate",
            Shape::RegOrVector => "a register or a register vector {...}",
        }
    }
}

/// When an operand position is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// Always.
    Always,
    /// When the instruction has it (told apart from the next operand by its shape).
    Optional,
    /// Exactly when qualifier slot `.0` is present.
    With(usize),
    /// Optional, and only when qualifier slot `.0` is present.
    OptionalWith(usize),
    /// Optional, and only when qualifier slot `.0` is absent.
    OptionalWithout(usize),
    /// Present while the instruction has operands left (wgmma's trailing immediates).
    Trailing,
    /// As [`When::Trailing`], but never when operand position `.0` holds a register vector
    /// (wgmma's `imm-trans-a`, which A in registers does not take).
    TrailingUnlessVector(usize),
}

/// How an immediate of the position is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmStyle {
    /// Decimal.
    Dec,
    /// `0x` and at least 8 hexadecimal digits (instruction descriptors).
    Hex8,
    /// `0x` and the digits needed.
    Hex,
    /// Decimal, as a signed 64-bit number (wgmma's `imm-scale-a`: `-1`).
    Signed,
}

/// An operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandSlot {
    /// Its name in the PTX ISA's syntax (`"d-tmem"`, `"idesc"`).
    pub name: &'static str,
    /// What it holds.
    pub shape: Shape,
    /// When it is present.
    pub when: When,
    /// How its immediates are written.
    pub imm: ImmStyle,
    /// The largest immediate the typed form holds.
    pub max: u64,
}

impl OperandSlot {
    /// A position of `shape` that is always present.
    pub(crate) const fn new(name: &'static str, shape: Shape) -> OperandSlot {
        OperandSlot {
            name,
            shape,
            when: When::Always,
            imm: ImmStyle::Dec,
            max: 0,
        }
    }

    /// With presence `when`.
    pub(crate) const fn when(mut self, when: When) -> OperandSlot {
        self.when = when;
        self
    }

    /// With immediates up to `max`, written as `imm`.
    pub(crate) const fn imm(mut self, imm: ImmStyle, max: u64) -> OperandSlot {
        self.imm = imm;
        self.max = max;
        self
    }
}

/// The grammar of one instruction form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grammar {
    /// The form's name (`"tcgen05.mma"`, `"wgmma.mma_async"`); the first slot spells the
    /// instruction.
    pub name: &'static str,
    /// The PTX ISA section that gives the syntax.
    pub section: &'static str,
    /// The qualifier slots after the opcode's base (`tcgen05`, `wgmma`), in order.
    pub slots: &'static [Slot],
    /// The operand positions, in order.
    pub operands: &'static [OperandSlot],
}

/// Most qualifier slots of a form.
pub const MAX_SLOTS: usize = 14;
/// Most operand positions of a form.
pub const MAX_OPERANDS: usize = 12;

/// An operand as a form holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg<'a> {
    /// A register or variable.
    Reg(&'a str),
    /// `[name]`, `[name+offset]` or `[name-offset]`: a register or variable and a constant
    /// byte or column offset (0 for the typed forms, which hold the name alone).
    Addr(&'a str, i64),
    /// `{r0, r1, ...}`.
    Vector(&'a [&'a str]),
    /// An immediate.
    Imm(u64),
}

/// One form spelled out in its grammar: which value of each slot, which operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelled<'a> {
    /// The grammar.
    pub grammar: &'static Grammar,
    /// The value of each slot (by [`Grammar::slots`] index), `None` where absent.
    pub quals: [Option<u16>; MAX_SLOTS],
    /// Each operand position's operand, `None` where absent.
    pub operands: [Option<Arg<'a>>; MAX_OPERANDS],
}

impl<'a> Spelled<'a> {
    /// `grammar` with no qualifier and no operand yet.
    #[must_use]
    pub const fn empty(grammar: &'static Grammar) -> Spelled<'a> {
        Spelled {
            grammar,
            quals: [None; MAX_SLOTS],
            operands: [None; MAX_OPERANDS],
        }
    }

    /// With slot `slot` set to value `v`.
    #[must_use]
    pub const fn q(mut self, slot: usize, v: u16) -> Self {
        self.quals[slot] = Some(v);
        self
    }

    /// With slot `slot` set to its one spelling when `on`.
    #[must_use]
    pub const fn flag(mut self, slot: usize, on: bool) -> Self {
        if on {
            self.quals[slot] = Some(0);
        }
        self
    }

    /// With operand `i`.
    #[must_use]
    pub const fn op(mut self, i: usize, a: Arg<'a>) -> Self {
        self.operands[i] = Some(a);
        self
    }

    /// With operand `i` when given.
    #[must_use]
    pub const fn opt(mut self, i: usize, a: Option<Arg<'a>>) -> Self {
        self.operands[i] = a;
        self
    }
}

impl Grammar {
    /// The opcode's base: the form's name up to its first dot (`"tcgen05"`, `"wgmma"`).
    #[must_use]
    pub fn base(&self) -> &'static str {
        self.name.split('.').next().unwrap_or(self.name)
    }

    /// Whether `s` is a sentence of the grammar: every required slot present, every slot's
    /// companion present, and each operand present exactly where its [`When`] allows. A typed
    /// form can hold more (a zero-column mask without `.ws`, scale-input-d with it): those
    /// forms are written, and refused by validation, but their text reads back as another form
    /// or none. `Err` names the slot or operand that breaks it.
    ///
    /// # Errors
    /// The name of the first slot or operand out of place.
    pub const fn conforms(&self, s: &Spelled<'_>) -> Result<(), &'static str> {
        let mut i = 0;
        while i < self.slots.len() {
            let slot = &self.slots[i];
            let here = s.quals[i].is_some();
            if slot.required && !here {
                return Err(slot.name);
            }
            if let Some(n) = slot.needs {
                if here && s.quals[n].is_none() {
                    return Err(slot.name);
                }
            }
            i += 1;
        }
        let mut i = 0;
        while i < self.operands.len() {
            let op = &self.operands[i];
            let here = s.operands[i].is_some();
            let ok = match op.when {
                When::Always => here,
                When::Optional | When::Trailing => true,
                When::With(q) => here == s.quals[q].is_some(),
                When::OptionalWith(q) => !here || s.quals[q].is_some(),
                When::OptionalWithout(q) => !here || s.quals[q].is_none(),
                When::TrailingUnlessVector(o) => {
                    !here || !matches!(s.operands[o], Some(Arg::Vector(_)))
                }
            };
            if !ok {
                return Err(op.name);
            }
            i += 1;
        }
        Ok(())
    }

    /// The lowest PTX ISA version of a spelled form and the spelling that needs it (the first
    /// slot, the instruction, when no qualifier needs more than it).
    #[must_use]
    pub const fn min_version(&self, s: &Spelled<'_>) -> (u8, usize, u16) {
        let mut best = (self.slots[0].since.ptx, 0, 0);
        let mut i = 0;
        while i < self.slots.len() {
            if let Some(v) = s.quals[i] {
                let since = self.slots[i].since_of(v);
                if since.ptx > best.0 {
                    best = (since.ptx, i, v);
                }
            }
            i += 1;
        }
        best
    }
}

/// Writes `s` as one line of PTX (ending in `;`, no newline).
///
/// # Errors
/// When the writer fails.
pub fn write_spelled<W: fmt::Write>(w: &mut W, s: &Spelled<'_>, syntax: Syntax) -> fmt::Result {
    let g = s.grammar;
    w.write_str(g.base())?;
    for (slot, v) in g.slots.iter().zip(s.quals) {
        if let Some(v) = v {
            slot.write_value(w, v)?;
        }
    }
    let mut first = true;
    for (slot, a) in g.operands.iter().zip(s.operands) {
        let Some(a) = a else { continue };
        w.write_str(if first { " " } else { ", " })?;
        first = false;
        match a {
            Arg::Reg(r) => w.write_str(r)?,
            Arg::Addr(r, 0) => write!(w, "[{r}]")?,
            Arg::Addr(r, o) if o < 0 => write!(w, "[{r}-{}]", o.unsigned_abs())?,
            Arg::Addr(r, o) => write!(w, "[{r}+{o}]")?,
            Arg::Vector(regs) => super::write_vector(w, regs, syntax)?,
            Arg::Imm(v) => match slot.imm {
                ImmStyle::Dec => write!(w, "{v}")?,
                ImmStyle::Hex8 => write!(w, "{v:#010x}")?,
                ImmStyle::Hex => write!(w, "{v:#x}")?,
                ImmStyle::Signed => write!(w, "{}", v as i64)?,
            },
        }
    }
    w.write_char(';')
}
