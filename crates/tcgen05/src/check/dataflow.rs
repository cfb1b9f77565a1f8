//! Known-bits dataflow over one function: for every register, the bits proven at compile time,
//! and the lines that define them.
//!
//! Flow-insensitive and sound: a register's value is the join of every definition of it in the
//! function (a register defined twice with different known bits keeps only the bits both agree
//! on), computed as a least fixed point with a worklist, so loops and definitions after their
//! uses are handled. A register with no unguarded definition, a destination of an instruction
//! this analysis does not model (loads, `ld.param`, `ld.shared`, calls, floating point, ...) and
//! a special register (`%tid.x`) are unknown. Each register changes at most 65 times (it only
//! loses known bits), so the work is linear in the function's size.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::known_bits::{width_mask, Arith, KnownBits};
use crate::ptx_reader::{Function, Instruction, Operand};

/// Where some known bits of a value come from: the mask of those bits and the 1-based line of
/// the instruction that wrote them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Origin {
    /// The bits.
    pub mask: u64,
    /// The line.
    pub line: u32,
}

/// Most origins kept per value (the oldest are dropped beyond).
const ORIGINS: usize = 4;

/// A register's abstract value: its known bits and where they come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Value {
    /// The known bits.
    pub bits: KnownBits,
    origins: [Origin; ORIGINS],
    n: u8,
}

impl Value {
    /// Nothing known.
    pub const UNKNOWN: Value = Value {
        bits: KnownBits::UNKNOWN,
        origins: [Origin { mask: 0, line: 0 }; ORIGINS],
        n: 0,
    };

    fn new(bits: KnownBits, line: u32) -> Value {
        let mut v = Value {
            bits,
            ..Value::UNKNOWN
        };
        v.add(Origin {
            mask: bits.known,
            line,
        });
        v
    }

    fn add(&mut self, o: Origin) {
        let mask = o.mask & self.bits.known;
        if mask == 0 {
            return;
        }
        for e in &mut self.origins[..self.n as usize] {
            if e.line == o.line {
                e.mask |= mask;
                return;
            }
        }
        if (self.n as usize) < ORIGINS {
            self.origins[self.n as usize] = Origin { mask, line: o.line };
            self.n += 1;
        } else {
            self.origins.copy_within(1.., 0);
            self.origins[ORIGINS - 1] = Origin { mask, line: o.line };
        }
    }

    /// The origins, oldest first.
    #[must_use]
    pub fn origins(&self) -> &[Origin] {
        &self.origins[..self.n as usize]
    }

    /// The line that last wrote any of the bits of `mask` (a field), if known.
    #[must_use]
    pub fn line_of(&self, mask: u64) -> Option<u32> {
        self.origins()
            .iter()
            .rev()
            .find(|o| o.mask & mask != 0)
            .map(|o| o.line)
    }

    fn with_origins_of(mut self, others: &[&Value], shift: i32) -> Value {
        for v in others {
            for o in v.origins() {
                let mask = if shift >= 0 {
                    o.mask.checked_shl(shift.unsigned_abs()).unwrap_or(0)
                } else {
                    o.mask.checked_shr(shift.unsigned_abs()).unwrap_or(0)
                };
                self.add(Origin { mask, line: o.line });
            }
        }
        self
    }

    fn join(self, other: &Value) -> Value {
        let bits = self.bits.join(other.bits);
        let mut v = Value {
            bits,
            ..Value::UNKNOWN
        };
        for o in self.origins().iter().chain(other.origins()) {
            v.add(*o);
        }
        v
    }
}

/// The register values of one function.
#[derive(Debug, Default)]
pub struct Registers<'a> {
    ids: BTreeMap<&'a str, usize>,
    values: Vec<Option<Value>>,
    /// Line of the definition, when a register has exactly one.
    def_line: Vec<Option<u32>>,
}

impl<'a> Registers<'a> {
    /// The value of a register after the analysis (unknown when never defined).
    #[must_use]
    pub fn get(&self, name: &str) -> Value {
        self.ids
            .get(name)
            .and_then(|&i| self.values.get(i).copied().flatten())
            .unwrap_or(Value::UNKNOWN)
    }

    /// The line of the register's definition when it has exactly one.
    #[must_use]
    pub fn def_line(&self, name: &str) -> Option<u32> {
        self.ids
            .get(name)
            .and_then(|&i| self.def_line.get(i).copied().flatten())
    }

    /// The value of an operand: an immediate's bits, a register's value, or unknown.
    #[must_use]
    pub fn operand(&self, op: &Operand<'_>, line: u32) -> Value {
        match op {
            Operand::Imm(v) | Operand::Float(v) => Value::new(KnownBits::constant(*v, 64), line),
            Operand::Name(n) => self.get(n),
            _ => Value::UNKNOWN,
        }
    }

    fn id(&mut self, name: &'a str) -> usize {
        if let Some(&i) = self.ids.get(name) {
            return i;
        }
        let i = self.values.len();
        self.ids.insert(name, i);
        self.values.push(None);
        self.def_line.push(None);
        i
    }
}

/// The type qualifier of an opcode: `b32` -> (32, signed = false); the last one when several.
fn types(ins: &Instruction<'_>) -> ([Option<(u32, char)>; 2], usize) {
    let mut out = [None, None];
    let mut n = 0;
    for q in ins.qualifiers() {
        let b = q.as_bytes();
        let Some(&first) = b.first() else { continue };
        if !matches!(first, b'b' | b'u' | b's' | b'f') {
            continue;
        }
        let Some(rest) = q.get(1..) else { continue };
        let Ok(w) = rest.parse::<u32>() else { continue };
        if !matches!(w, 8 | 16 | 32 | 64) {
            continue;
        }
        if n < 2 {
            out[n] = Some((w, first as char));
        } else {
            out[1] = Some((w, first as char));
        }
        n += 1;
    }
    if ins.qualifiers().any(|q| q == "pred") {
        out[0] = Some((1, 'b'));
        n = n.max(1);
    }
    (out, n)
}

/// What an instruction writes, for the analysis.
enum Effect {
    /// Writes nothing this analysis tracks.
    None,
    /// Its destinations become unknown.
    Unknown,
    /// A modelled instruction: evaluated with the current operand values.
    Modelled,
}

fn effect(ins: &Instruction<'_>) -> Effect {
    let Some(first) = ins.operands.first() else {
        return Effect::None;
    };
    if matches!(
        first,
        Operand::Address { .. } | Operand::Imm(_) | Operand::Float(_) | Operand::Not(_)
    ) {
        return Effect::None;
    }
    let base = ins.base();
    let modelled = matches!(
        base,
        "mov"
            | "or"
            | "and"
            | "xor"
            | "not"
            | "shl"
            | "shr"
            | "add"
            | "sub"
            | "mul"
            | "bfe"
            | "bfi"
            | "cvt"
            | "prmt"
            | "selp"
    );
    if !modelled {
        return Effect::Unknown;
    }
    let (t, _) = types(ins);
    match t[0] {
        Some((_, 'f')) if base != "mov" && base != "selp" => Effect::Unknown,
        None => Effect::Unknown,
        _ => Effect::Modelled,
    }
}

fn width(ins: &Instruction<'_>) -> u32 {
    types(ins).0[0].map_or(64, |t| t.0)
}

/// Runs the analysis over `f`.
#[must_use]
pub fn analyse<'a>(f: &Function<'a>) -> Registers<'a> {
    let mut regs = Registers::default();
    let n = f.instructions.len();
    // Per instruction: the registers it writes; per register: the instructions that read it,
    // and whether it has an unguarded definition.
    let mut writes: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut users: Vec<Vec<usize>> = Vec::new();
    let mut unguarded: Vec<bool> = Vec::new();
    let mut defs: Vec<u32> = Vec::new();
    let mut effects = Vec::with_capacity(n);
    let mut names = Vec::new();
    for (idx, ins) in f.instructions.iter().enumerate() {
        let e = effect(ins);
        names.clear();
        if !matches!(e, Effect::None) {
            if let Some(first) = ins.operands.first() {
                first.destination_names(&mut names);
            }
            // tcgen05.ld.red also writes its second operand (redval).
            if ins.opcode.starts_with("tcgen05.ld.red") {
                if let Some(o) = ins.operands.get(1) {
                    o.destination_names(&mut names);
                }
            }
        }
        let mut w = Vec::new();
        for &name in &names {
            let id = regs.id(name);
            grow(&mut users, &mut unguarded, &mut defs, id);
            if ins.guard.is_none() {
                unguarded[id] = true;
            }
            defs[id] += 1;
            regs.def_line[id] = if defs[id] == 1 { Some(ins.line) } else { None };
            w.push(id);
        }
        if matches!(e, Effect::Modelled) {
            for op in ins.operands.iter().skip(1) {
                for_each_name(op, &mut |name| {
                    let id = regs.id(name);
                    grow(&mut users, &mut unguarded, &mut defs, id);
                    users[id].push(idx);
                });
            }
            // Unpacking `mov.b64 {a, b}, %rd` reads the vector's source only, handled above.
        }
        writes.push(w);
        effects.push(e);
    }
    grow(
        &mut users,
        &mut unguarded,
        &mut defs,
        regs.values.len().saturating_sub(1),
    );
    // Registers never defined, or defined only under a guard, start unknown; so do the
    // destinations of unmodelled instructions.
    for id in 0..regs.values.len() {
        if defs[id] == 0 || !unguarded[id] {
            regs.values[id] = Some(Value::UNKNOWN);
        }
    }
    let mut work: Vec<usize> = Vec::new();
    let mut queued = alloc::vec![false; n];
    for (idx, e) in effects.iter().enumerate() {
        match e {
            Effect::Unknown => {
                for &id in &writes[idx] {
                    regs.values[id] = Some(Value::UNKNOWN);
                }
            }
            Effect::Modelled => {
                work.push(idx);
                queued[idx] = true;
            }
            Effect::None => {}
        }
    }
    work.reverse();
    let mut results = Vec::new();
    loop {
        while let Some(idx) = work.pop() {
            queued[idx] = false;
            let ins = &f.instructions[idx];
            results.clear();
            if !evaluate(ins, &regs, &writes[idx], &mut results) {
                continue;
            }
            for &(id, v) in &results {
                let new = match regs.values[id] {
                    None => v,
                    Some(old) => old.join(&v),
                };
                if regs.values[id] != Some(new) {
                    // Only the known bits drive termination: origins follow them.
                    let changed_bits = regs.values[id].map(|o| o.bits) != Some(new.bits);
                    regs.values[id] = Some(new);
                    if changed_bits {
                        for &u in &users[id] {
                            if !queued[u] {
                                queued[u] = true;
                                work.push(u);
                            }
                        }
                    }
                }
            }
        }
        // A register still without a value is defined only from registers without one (a
        // cycle with no base): it is unknown, and its users are evaluated again.
        let mut again = false;
        #[allow(clippy::needless_range_loop)]
        for id in 0..regs.values.len() {
            if regs.values[id].is_none() {
                regs.values[id] = Some(Value::UNKNOWN);
                for &u in &users[id] {
                    if !queued[u] {
                        queued[u] = true;
                        work.push(u);
                        again = true;
                    }
                }
            }
        }
        if !again {
            break;
        }
    }
    regs
}

fn grow(users: &mut Vec<Vec<usize>>, g: &mut Vec<bool>, d: &mut Vec<u32>, id: usize) {
    while users.len() <= id {
        users.push(Vec::new());
        g.push(false);
        d.push(0);
    }
}

fn for_each_name<'a>(op: &Operand<'a>, f: &mut impl FnMut(&'a str)) {
    match op {
        Operand::Name(n) | Operand::Not(n) => f(n),
        Operand::Vector(v) | Operand::Group(v) => {
            for o in v {
                for_each_name(o, f);
            }
        }
        Operand::Pair(a, b) => {
            f(a);
            f(b);
        }
        Operand::Address { base: Some(b), .. } => f(b),
        _ => {}
    }
}

/// The value of a source operand, `None` when a register has no value yet (bottom).
fn src(regs: &Registers<'_>, op: &Operand<'_>, line: u32, width: u32) -> Option<Value> {
    let v = match op {
        Operand::Imm(v) | Operand::Float(v) => Value::new(KnownBits::constant(*v, 64), line),
        Operand::Name(n) => {
            if n.starts_with("%") && n.contains('.') {
                // A special register (%tid.x, %ctaid.y, ...).
                Value::UNKNOWN
            } else {
                match regs.ids.get(n) {
                    Some(&id) => regs.values[id]?,
                    None => Value::UNKNOWN,
                }
            }
        }
        _ => Value::UNKNOWN,
    };
    let mut v = v;
    v.bits = v.bits.truncate(width);
    Some(v)
}

fn amount(v: &Value) -> Option<u32> {
    if v.bits.is_constant(32) {
        Some(u32::try_from(v.bits.value & 0xffff_ffff).unwrap_or(u32::MAX))
    } else {
        None
    }
}

/// Evaluates one modelled instruction; `false` when an operand has no value yet.
fn evaluate(
    ins: &Instruction<'_>,
    regs: &Registers<'_>,
    writes: &[usize],
    out: &mut Vec<(usize, Value)>,
) -> bool {
    let w = width(ins);
    let line = ins.line;
    let ops = &ins.operands;
    let unknown_all = |out: &mut Vec<(usize, Value)>| {
        for &id in writes {
            out.push((id, Value::UNKNOWN));
        }
        true
    };
    let own = |bits: KnownBits| Value::new(bits.truncate(w), line);
    let single = |out: &mut Vec<(usize, Value)>, v: Value| {
        if let [id] = writes {
            out.push((*id, v));
        } else {
            for &id in writes {
                out.push((id, Value::UNKNOWN));
            }
        }
        true
    };
    let signed = types(ins).0[0].is_some_and(|t| t.1 == 's');
    match (ins.base(), ops.as_slice()) {
        ("mov", [Operand::Vector(dst), Operand::Name(_)]) => {
            // Unpack: element i gets bits [i*w/n, (i+1)*w/n).
            let Some(s) = src(regs, &ops[1], line, w) else {
                return false;
            };
            let k = u32::try_from(dst.len()).unwrap_or(0);
            if k == 0 || w % k != 0 || writes.len() != dst.len() {
                return unknown_all(out);
            }
            let ew = w / k;
            for (i, &id) in writes.iter().enumerate() {
                let sh = ew * u32::try_from(i).unwrap_or(0);
                let bits = s.bits.shr(sh, 64, false).truncate(ew);
                let v = Value {
                    bits,
                    ..Value::UNKNOWN
                }
                .with_origins_of(&[&s], -(sh as i32));
                out.push((id, v));
            }
            true
        }
        ("mov", [_, Operand::Vector(parts)]) => {
            // Pack: element i fills bits [i*w/k, (i+1)*w/k).
            let k = u32::try_from(parts.len()).unwrap_or(0);
            if k == 0 || w % k != 0 {
                return unknown_all(out);
            }
            let ew = w / k;
            let mut bits = KnownBits::constant(0, 64);
            let mut v = Value::UNKNOWN;
            let mut pieces = Vec::new();
            for (i, p) in parts.iter().enumerate() {
                let Some(pv) = src(regs, p, line, ew) else {
                    return false;
                };
                let sh = ew * u32::try_from(i).unwrap_or(0);
                let piece = pv.bits.truncate(ew);
                let placed = KnownBits {
                    known: (piece.known & width_mask(ew)) << sh,
                    value: (piece.value & width_mask(ew)) << sh,
                };
                let rest = !(width_mask(ew) << sh);
                bits = KnownBits {
                    known: (bits.known & rest) | placed.known,
                    value: (bits.value & rest) | placed.value,
                };
                pieces.push((pv, sh));
            }
            v.bits = bits.truncate(w);
            for (pv, sh) in &pieces {
                v = v.with_origins_of(&[pv], *sh as i32);
            }
            single(out, v)
        }
        ("mov", [_, s]) => {
            let Some(s) = src(regs, s, line, w) else {
                return false;
            };
            single(out, s)
        }
        ("or" | "and" | "xor", [_, a, b]) => {
            let (Some(a), Some(b)) = (src(regs, a, line, w), src(regs, b, line, w)) else {
                return false;
            };
            let bits = match ins.base() {
                "or" => a.bits.or(b.bits),
                "and" => a.bits.and(b.bits),
                _ => a.bits.xor(b.bits),
            };
            let v = Value {
                bits: bits.truncate(w),
                ..Value::UNKNOWN
            }
            .with_origins_of(&[&a, &b], 0);
            single(out, v)
        }
        ("not", [_, a]) => {
            let Some(a) = src(regs, a, line, w) else {
                return false;
            };
            let v = Value {
                bits: a.bits.not(w),
                ..Value::UNKNOWN
            }
            .with_origins_of(&[&a], 0);
            single(out, v)
        }
        ("shl" | "shr", [_, a, s]) => {
            let (Some(a), Some(s)) = (src(regs, a, line, w), src(regs, s, line, 32)) else {
                return false;
            };
            let Some(n) = amount(&s) else {
                return single(out, Value::UNKNOWN);
            };
            let (bits, shift) = if ins.base() == "shl" {
                (a.bits.shl(n, w), i32::try_from(n.min(64)).unwrap_or(64))
            } else {
                (
                    a.bits.shr(n, w, signed),
                    -i32::try_from(n.min(64)).unwrap_or(64),
                )
            };
            let mut v = Value {
                bits,
                ..Value::UNKNOWN
            }
            .with_origins_of(&[&a], shift);
            v.add(Origin { mask: !0, line });
            single(out, v)
        }
        ("add" | "sub" | "mul", [_, a, b]) => {
            let q: Vec<&str> = ins.qualifiers().collect();
            if q.iter()
                .any(|q| matches!(*q, "hi" | "wide" | "sat" | "cc" | "f32" | "f64"))
                && !(ins.base() != "mul" && q.contains(&"cc"))
            {
                return unknown_all(out);
            }
            if ins.base() == "mul" && !q.contains(&"lo") {
                return unknown_all(out);
            }
            let (Some(a), Some(b)) = (src(regs, a, line, w), src(regs, b, line, w)) else {
                return false;
            };
            let op = match ins.base() {
                "add" => Arith::Add,
                "sub" => Arith::Sub,
                _ => Arith::Mul,
            };
            single(out, own(a.bits.arith(b.bits, w, op)))
        }
        ("bfe", [_, a, p, l]) => {
            let (Some(a), Some(p), Some(l)) = (
                src(regs, a, line, w),
                src(regs, p, line, 32),
                src(regs, l, line, 32),
            ) else {
                return false;
            };
            match (amount(&p), amount(&l)) {
                (Some(p), Some(l)) => single(out, own(a.bits.bfe(p, l, w, signed))),
                _ => single(out, Value::UNKNOWN),
            }
        }
        ("bfi", [_, f, b, p, l]) => {
            let (Some(f), Some(b), Some(p), Some(l)) = (
                src(regs, f, line, w),
                src(regs, b, line, w),
                src(regs, p, line, 32),
                src(regs, l, line, 32),
            ) else {
                return false;
            };
            match (amount(&p), amount(&l)) {
                (Some(p), Some(l)) => single(out, own(b.bits.bfi(f.bits, p, l, w))),
                _ => single(out, Value::UNKNOWN),
            }
        }
        ("cvt", [_, a]) => {
            // Integer to integer only: no rounding, saturation or floating-point type.
            let (t, n) = types(ins);
            let (Some((dw, dk)), Some((sw, sk))) = (t[0], t[1]) else {
                return unknown_all(out);
            };
            if n != 2
                || dk == 'f'
                || sk == 'f'
                || ins.qualifiers().any(|q| q.starts_with('r') || q == "sat")
            {
                return unknown_all(out);
            }
            let Some(a) = src(regs, a, line, sw) else {
                return false;
            };
            let ext = if sk == 's' {
                a.bits.sign_extend(sw)
            } else {
                a.bits.truncate(sw)
            };
            let v = Value {
                bits: ext.truncate(dw),
                ..Value::UNKNOWN
            }
            .with_origins_of(&[&a], 0);
            single(out, v)
        }
        ("prmt", [_, a, b, c]) => {
            if ins.qualifiers().count() != 1 {
                // A mode (.f4e, .b4e, .rc8, .ecl, .ecr, .rc16): not modelled.
                return unknown_all(out);
            }
            let (Some(a), Some(b), Some(c)) = (
                src(regs, a, line, 32),
                src(regs, b, line, 32),
                src(regs, c, line, 32),
            ) else {
                return false;
            };
            match amount(&c) {
                Some(sel) => single(out, own(KnownBits::prmt(a.bits, b.bits, sel))),
                None => single(out, Value::UNKNOWN),
            }
        }
        ("selp", [_, a, b, _]) => {
            let (Some(a), Some(b)) = (src(regs, a, line, w), src(regs, b, line, w)) else {
                return false;
            };
            single(out, a.join(&b))
        }
        _ => unknown_all(out),
    }
}

#[cfg(test)]
mod tests;
