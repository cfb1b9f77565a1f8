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
    /// An address of the shared memory window: a `.shared` variable's, `cvta.to.shared`'s,
    /// or such an address plus or minus an offset.
    pub window: bool,
}

impl Value {
    /// Nothing known.
    pub const UNKNOWN: Value = Value {
        bits: KnownBits::UNKNOWN,
        origins: [Origin { mask: 0, line: 0 }; ORIGINS],
        n: 0,
        window: false,
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

    /// These bits with the origins of `other` restricted to `mask` (the bits `other` decides).
    fn with_origins_masked(mut self, other: &Value, mask: u64) -> Value {
        for o in other.origins() {
            self.add(Origin {
                mask: o.mask & mask,
                line: o.line,
            });
        }
        self
    }

    fn join(self, other: &Value) -> Value {
        let bits = self.bits.join(other.bits);
        let mut v = Value {
            bits,
            window: self.window && other.window,
            ..Value::UNKNOWN
        };
        for o in self.origins().iter().chain(other.origins()) {
            v.add(*o);
        }
        v
    }
}

/// What the analysis knows besides a function's instructions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Environment<'m, 'a> {
    /// The module's `.shared` variables with their `.align`: their addresses lie in the
    /// shared memory window, at multiples of their alignment.
    pub shared: &'m [(&'a str, u64)],
    /// Decisions R7: an addition into a shared memory descriptor does not carry out of the
    /// start-address field (bits 0-13), so the descriptor's other fields survive
    /// `desc + stage * C` with a run-time `stage`. Off: those fields become unknown.
    pub assume_no_carry_out: bool,
}

/// Addresses of the shared memory window (`.shared` variables, `cvta.to.shared`,
/// `%dynamic_smem_size`) are below 2^18: a CTA has at most 228 KB of shared memory on
/// sm_100 (CUDA C++ Programming Guide, Table 24 "Maximum amount of shared memory per thread
/// block"), so bits 18 and up are zero.
pub const SHARED_WINDOW_BITS: u32 = 18;

/// The known bits of a shared memory address.
#[must_use]
pub const fn shared_address() -> KnownBits {
    KnownBits {
        known: !width_mask(SHARED_WINDOW_BITS),
        value: 0,
    }
}

/// Bits 14-63 of a shared memory descriptor: every field but the start address.
const ABOVE_START_ADDRESS: u64 = !width_mask(14);

/// The register values of one function.
#[derive(Debug, Default)]
pub struct Registers<'a> {
    ids: BTreeMap<&'a str, usize>,
    values: Vec<Option<Value>>,
    /// Line of the definition, when a register has exactly one.
    def_line: Vec<Option<u32>>,
    /// Registers whose value relied on rules.md R7 ([`Environment::assume_no_carry_out`]).
    assumed: Vec<bool>,
    /// Per register, the indices of the instructions that write it.
    def_sites: Vec<Vec<usize>>,
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

    /// True when the register's known bits rely on rules.md R7 (an addition into a
    /// descriptor that does not carry out of the start-address field).
    #[must_use]
    pub fn assumed(&self, name: &str) -> bool {
        self.ids
            .get(name)
            .and_then(|&i| self.assumed.get(i).copied())
            .unwrap_or(false)
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
        self.assumed.push(false);
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
            | "mad"
            | "shfl"
            | "cvta"
    );
    if !modelled {
        return Effect::Unknown;
    }
    if base == "cvta" && !ins.opcode.starts_with("cvta.to.shared") {
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

/// Runs the analysis over `f` with no `.shared` variable known and rules.md R7 off.
#[must_use]
pub fn analyse<'a>(f: &Function<'a>) -> Registers<'a> {
    analyse_in(f, &Environment::default())
}

/// Runs the analysis over `f` in a module's environment.
#[must_use]
pub fn analyse_in<'a>(f: &Function<'a>, env: &Environment<'_, 'a>) -> Registers<'a> {
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
        for &id in &w {
            while regs.def_sites.len() <= id {
                regs.def_sites.push(Vec::new());
            }
            regs.def_sites[id].push(idx);
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
            let mut assumed = false;
            if !evaluate(ins, &regs, env, &writes[idx], &mut results, &mut assumed) {
                continue;
            }
            let used = assumed
                || ins.operands.iter().skip(1).any(|op| {
                    let mut any = false;
                    for_each_name(op, &mut |n| any |= regs.assumed(n));
                    any
                });
            for &(id, v) in &results {
                if used {
                    regs.assumed[id] = true;
                }
                let new = match regs.values[id] {
                    None => v,
                    Some(old) => old.join(&v),
                };
                if regs.values[id] != Some(new) {
                    // Only the known bits drive termination: origins follow them.
                    let changed_bits =
                        regs.values[id].map(|o| (o.bits, o.window)) != Some((new.bits, new.window));
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
fn src(
    regs: &Registers<'_>,
    env: &Environment<'_, '_>,
    op: &Operand<'_>,
    line: u32,
    width: u32,
) -> Option<Value> {
    let v = match op {
        Operand::Imm(v) | Operand::Float(v) => Value::new(KnownBits::constant(*v, 64), line),
        Operand::Name(n) => match regs.ids.get(n) {
            Some(&id) if regs.def_sites.get(id).is_some_and(|d| !d.is_empty()) => regs.values[id]?,
            _ => not_a_register(env, n, line),
        },
        _ => Value::UNKNOWN,
    };
    let mut v = v;
    v.bits = v.bits.truncate(width);
    Some(v)
}

/// The value of a name no instruction of the function writes: a shared memory variable's
/// address, `%dynamic_smem_size`, or unknown (a special register such as `%tid.x`, a parameter,
/// another variable).
fn not_a_register(env: &Environment<'_, '_>, n: &str, line: u32) -> Value {
    if n == "%dynamic_smem_size" {
        return Value::new(shared_address(), line);
    }
    // A variable's address: in the window, and a multiple of its `.align`.
    let Some(align) = env.shared.iter().filter(|s| s.0 == n).map(|s| s.1).min() else {
        return Value::UNKNOWN;
    };
    let mut bits = shared_address();
    bits.known |= align - 1;
    Value {
        window: true,
        ..Value::new(bits, line)
    }
}

fn amount(v: &Value) -> Option<u32> {
    if v.bits.is_constant(32) {
        Some(u32::try_from(v.bits.value & 0xffff_ffff).unwrap_or(u32::MAX))
    } else {
        None
    }
}

/// The widths of an `add`, `sub`, `mul` or `mad`: operands of `operand_width` bits and a
/// result of `result_width` bits (twice as wide for `.wide`).
#[derive(Clone, Copy)]
struct ArithShape {
    operand_width: u32,
    result_width: u32,
}

impl ArithShape {
    /// The operands as the operation reads them: extended to the result's width for `.wide`.
    fn widen(self, a: KnownBits, b: KnownBits, signed: bool) -> (KnownBits, KnownBits) {
        if self.result_width == self.operand_width {
            (a, b)
        } else {
            (
                a.widen(self.operand_width, signed),
                b.widen(self.operand_width, signed),
            )
        }
    }
}

/// The widths of a modelled integer `add`, `sub`, `mul` or `mad`; `None` for the forms whose
/// result is not the low part of the exact result (`.hi`, `.sat`, floating point, `mul` and
/// `mad` without `.lo` / `.wide`).
fn arith_shape(ins: &Instruction<'_>) -> Option<ArithShape> {
    let q: Vec<&str> = ins.qualifiers().collect();
    if q.iter().any(|q| {
        matches!(
            *q,
            "hi" | "sat" | "f16" | "f32" | "f64" | "rn" | "rz" | "rm" | "rp"
        )
    }) {
        return None;
    }
    let w = width(ins);
    let wide = q.contains(&"wide");
    let product = matches!(ins.base(), "mul" | "mad");
    if product && !(wide || q.contains(&"lo")) {
        return None;
    }
    if wide && (!product || w > 32) {
        return None;
    }
    Some(ArithShape {
        operand_width: w,
        result_width: if wide { 2 * w } else { w },
    })
}

/// `a + b` or `a - b` in `width` bits, with the origins of the bits each operand passes
/// through unchanged. Under rules.md R7, when one operand looks like a shared memory
/// descriptor (bits 14-63 known, the fixed bits 46-48 = 0b001 of Table 40) and the result
/// would lose them, its bits 14-63 are kept: `desc + stage * C` only moves the start address.
fn sum(
    a: &Value,
    b: &Value,
    op: Arith,
    width: u32,
    line: u32,
    env: &Environment<'_, '_>,
    assumed: &mut bool,
) -> Value {
    let bits = a.bits.arith(b.bits, width, op);
    let mut v = Value::new(bits, line);
    // Credit to an operand the known bits of the result above the other operand's highest
    // bit that can be set, and above the carry out of it (attribution only: the bits
    // themselves are those of `arith`).
    let passes = |x: &Value, other: &Value| -> u64 {
        let max = (other.bits.value | !other.bits.known) & width_mask(width);
        let span = 64 - max.leading_zeros();
        let above = !width_mask((span + 1).min(64));
        above & x.bits.known & bits.known
    };
    v = v.with_origins_masked(a, passes(a, b));
    if op == Arith::Add {
        v = v.with_origins_masked(b, passes(b, a));
    }
    // Under the same assumption, a shared memory address plus or minus an offset is an
    // address of the window again: the carry does not leave the start-address field (bits
    // 4-17 of the address) either.
    let one_address = (a.window || b.window) && !(op == Arith::Sub && b.window);
    if env.assume_no_carry_out && one_address {
        let high = shared_address().known & width_mask(width);
        if bits.known & high != high || bits.value & high != 0 {
            *assumed = true;
        }
        v.bits = KnownBits {
            known: (bits.known & !high) | high,
            value: bits.value & !high,
        };
        v.window = true;
        return v;
    }
    // Both operands' bits above the start-address field known (a descriptor word and an
    // offset, as Triton steps `{lo + 2, hi}` along K): under R7 those bits are the sum of the
    // operands' high parts, with no carry from the start-address field.
    let high = ABOVE_START_ADDRESS & width_mask(width);
    if env.assume_no_carry_out
        && width >= 32
        && bits.known & high != high
        && a.bits.known & high == high
        && b.bits.known & high == high
    {
        let (ha, hb) = (a.bits.value & high, b.bits.value & high);
        let sum_high = match op {
            Arith::Add => ha.wrapping_add(hb),
            Arith::Sub => ha.wrapping_sub(hb),
            Arith::Mul => 0,
        } & high;
        let low = width_mask(14);
        *assumed = true;
        let kept = KnownBits {
            known: (bits.known & low) | high | !width_mask(width),
            value: (bits.value & low) | sum_high,
        };
        return Value::new(kept, line)
            .with_origins_masked(a, passes(a, b))
            .with_origins_masked(b, passes(b, a));
    }
    if env.assume_no_carry_out && width == 64 {
        for (d, other) in [(a, b), (b, a)] {
            if op == Arith::Sub && core::ptr::eq(d, b) {
                continue;
            }
            let looks_like_descriptor = d.bits.known & ABOVE_START_ADDRESS == ABOVE_START_ADDRESS
                && (d.bits.value >> 46) & 0b111 == 0b001;
            let lost = ABOVE_START_ADDRESS & !bits.known != 0;
            if looks_like_descriptor
                && lost
                && other.bits.known & ABOVE_START_ADDRESS != ABOVE_START_ADDRESS
            {
                let low = width_mask(14);
                let kept = KnownBits {
                    known: (bits.known & low) | ABOVE_START_ADDRESS,
                    value: (bits.value & low) | (d.bits.value & ABOVE_START_ADDRESS),
                };
                *assumed = true;
                return Value::new(kept, line).with_origins_masked(d, ABOVE_START_ADDRESS);
            }
        }
    }
    v
}

/// Evaluates one modelled instruction; `false` when an operand has no value yet.
fn evaluate(
    ins: &Instruction<'_>,
    regs: &Registers<'_>,
    env: &Environment<'_, '_>,
    writes: &[usize],
    out: &mut Vec<(usize, Value)>,
    assumed: &mut bool,
) -> bool {
    let s = Step {
        ins,
        regs,
        env,
        writes,
        w: width(ins),
        line: ins.line,
        signed: types(ins).0[0].is_some_and(|t| t.1 == 's'),
    };
    let w = s.w;
    let ops = &ins.operands;
    match (ins.base(), ops.as_slice()) {
        ("mov", [Operand::Vector(dst), Operand::Name(_)]) => s.unpack(dst.len(), &ops[1], out),
        ("mov", [_, Operand::Vector(parts)]) => s.pack(parts, out),
        ("mov", [_, a]) => {
            let Some(a) = s.src(a, w) else { return false };
            s.single(out, a)
        }
        ("or" | "and" | "xor", [_, a, b]) => s.logic(a, b, out),
        ("not", [_, a]) => {
            let Some(a) = s.src(a, w) else { return false };
            let v = Value {
                bits: a.bits.not(w),
                ..Value::UNKNOWN
            }
            .with_origins_of(&[&a], 0);
            s.single(out, v)
        }
        ("shl" | "shr", [_, a, n]) => s.shift(a, n, out),
        ("add" | "sub" | "mul", [_, a, b]) => s.arith(a, b, out, assumed),
        ("mad", [_, a, b, c]) => s.mad(a, b, c, out, assumed),
        ("shfl", [_, a, ..]) => {
            // shfl.sync (PTX ISA 9.7.9.6): the destination is `a` of another lane; the bits
            // known here hold in every lane, so they hold in the one read. The predicate
            // destination is unknown.
            let Some(a) = s.src(a, w) else { return false };
            for (k, &id) in writes.iter().enumerate() {
                out.push((id, if k == 0 { a } else { Value::UNKNOWN }));
            }
            true
        }
        ("cvta", [_, _]) => {
            // cvta.to.shared: an address of the shared memory window.
            let v = Value {
                window: true,
                ..s.own(shared_address())
            };
            s.single(out, v)
        }
        ("bfe" | "bfi", _) => s.bit_field(out),
        ("cvt", [_, a]) => s.cvt(a, out),
        ("prmt", [_, a, b, c]) => s.prmt(a, b, c, out),
        ("selp", [_, a, b, _]) => {
            let (Some(a), Some(b)) = (s.src(a, w), s.src(b, w)) else {
                return false;
            };
            s.single(out, a.join(&b))
        }
        _ => s.unknown_all(out),
    }
}

/// One modelled instruction being evaluated: what each transfer function reads. Each
/// returns `false` when an operand has no value yet, as [`evaluate`] does.
struct Step<'s, 'i, 'r, 'm, 'e> {
    ins: &'s Instruction<'i>,
    regs: &'s Registers<'r>,
    env: &'s Environment<'m, 'e>,
    /// The registers the instruction writes.
    writes: &'s [usize],
    /// The width of its type.
    w: u32,
    line: u32,
    /// Its type is signed.
    signed: bool,
}

impl Step<'_, '_, '_, '_, '_> {
    /// The value of a source operand read as `width` bits.
    fn src(&self, op: &Operand<'_>, width: u32) -> Option<Value> {
        src(self.regs, self.env, op, self.line, width)
    }

    /// Every destination unknown.
    fn unknown_all(&self, out: &mut Vec<(usize, Value)>) -> bool {
        for &id in self.writes {
            out.push((id, Value::UNKNOWN));
        }
        true
    }

    /// `bits` as a value defined here, in the instruction's width.
    fn own(&self, bits: KnownBits) -> Value {
        Value::new(bits.truncate(self.w), self.line)
    }

    /// `v` into the one destination (every destination unknown where there are several).
    fn single(&self, out: &mut Vec<(usize, Value)>, v: Value) -> bool {
        if let [id] = self.writes {
            out.push((*id, v));
            true
        } else {
            self.unknown_all(out)
        }
    }

    /// `mov {d0, d1, ...}, s`: element i gets bits [i*w/n, (i+1)*w/n).
    fn unpack(&self, n: usize, s: &Operand<'_>, out: &mut Vec<(usize, Value)>) -> bool {
        let w = self.w;
        let Some(s) = self.src(s, w) else {
            return false;
        };
        let k = u32::try_from(n).unwrap_or(0);
        if k == 0 || w % k != 0 || self.writes.len() != n {
            return self.unknown_all(out);
        }
        let ew = w / k;
        for (i, &id) in self.writes.iter().enumerate() {
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

    /// `mov d, {p0, p1, ...}`: element i fills bits [i*w/k, (i+1)*w/k).
    fn pack(&self, parts: &[Operand<'_>], out: &mut Vec<(usize, Value)>) -> bool {
        let w = self.w;
        let k = u32::try_from(parts.len()).unwrap_or(0);
        if k == 0 || w % k != 0 {
            return self.unknown_all(out);
        }
        let ew = w / k;
        let mut bits = KnownBits::constant(0, 64);
        let mut v = Value::UNKNOWN;
        let mut pieces = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let Some(pv) = self.src(p, ew) else {
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
        self.single(out, v)
    }

    /// `or`, `and`, `xor`.
    fn logic(&self, a: &Operand<'_>, b: &Operand<'_>, out: &mut Vec<(usize, Value)>) -> bool {
        let w = self.w;
        let (Some(a), Some(b)) = (self.src(a, w), self.src(b, w)) else {
            return false;
        };
        let base = self.ins.base();
        let bits = match base {
            "or" => a.bits.or(b.bits),
            "and" => a.bits.and(b.bits),
            _ => a.bits.xor(b.bits),
        };
        let bits = bits.truncate(w);
        // Each known bit is credited to the operand that decides it: for `or` a one
        // comes from an operand holding a one, for `and` a zero from an operand holding a
        // zero; a bit both operands decide is credited to the one with more known bits
        // (the constant of `or(constant, address)`).
        let (ka, kb) = (a.bits.known.count_ones(), b.bits.known.count_ones());
        let (first, second) = if ka >= kb { (&a, &b) } else { (&b, &a) };
        let decided_by = |x: &Value| match base {
            "or" => x.bits.known & x.bits.value,
            "and" => x.bits.known & !x.bits.value,
            _ => 0,
        };
        let from_second = decided_by(second) & !decided_by(first);
        let v = Value {
            bits,
            ..Value::UNKNOWN
        }
        .with_origins_masked(first, !from_second)
        .with_origins_masked(second, from_second);
        self.single(out, v)
    }

    /// `shl`, `shr` by a known amount.
    fn shift(&self, a: &Operand<'_>, s: &Operand<'_>, out: &mut Vec<(usize, Value)>) -> bool {
        let w = self.w;
        let (Some(a), Some(s)) = (self.src(a, w), self.src(s, 32)) else {
            return false;
        };
        let Some(n) = amount(&s) else {
            return self.single(out, Value::UNKNOWN);
        };
        let (bits, shift) = if self.ins.base() == "shl" {
            (a.bits.shl(n, w), i32::try_from(n.min(64)).unwrap_or(64))
        } else {
            (
                a.bits.shr(n, w, self.signed),
                -i32::try_from(n.min(64)).unwrap_or(64),
            )
        };
        let mut v = Value {
            bits,
            ..Value::UNKNOWN
        }
        .with_origins_of(&[&a], shift);
        v.add(Origin {
            mask: !0,
            line: self.line,
        });
        self.single(out, v)
    }

    /// `add`, `sub`, `mul` of the integer forms [`arith_shape`] models.
    fn arith(
        &self,
        a: &Operand<'_>,
        b: &Operand<'_>,
        out: &mut Vec<(usize, Value)>,
        assumed: &mut bool,
    ) -> bool {
        let Some(shape) = arith_shape(self.ins) else {
            return self.unknown_all(out);
        };
        let (Some(a), Some(b)) = (
            self.src(a, shape.operand_width),
            self.src(b, shape.operand_width),
        ) else {
            return false;
        };
        let op = match self.ins.base() {
            "add" => Arith::Add,
            "sub" => Arith::Sub,
            _ => Arith::Mul,
        };
        let (a_bits, b_bits) = shape.widen(a.bits, b.bits, self.signed);
        let dw = shape.result_width;
        let v = if op == Arith::Mul {
            Value::new(a_bits.arith(b_bits, dw, op), self.line)
        } else {
            sum(&a, &b, op, dw, self.line, self.env, assumed)
        };
        self.single(out, v)
    }

    /// `mad` of the integer forms [`arith_shape`] models.
    fn mad(
        &self,
        a: &Operand<'_>,
        b: &Operand<'_>,
        c: &Operand<'_>,
        out: &mut Vec<(usize, Value)>,
        assumed: &mut bool,
    ) -> bool {
        let Some(shape) = arith_shape(self.ins) else {
            return self.unknown_all(out);
        };
        let (Some(a), Some(b), Some(c)) = (
            self.src(a, shape.operand_width),
            self.src(b, shape.operand_width),
            self.src(c, shape.result_width),
        ) else {
            return false;
        };
        let (a_bits, b_bits) = shape.widen(a.bits, b.bits, self.signed);
        let dw = shape.result_width;
        let product = Value::new(a_bits.arith(b_bits, dw, Arith::Mul), self.line);
        let v = sum(&product, &c, Arith::Add, dw, self.line, self.env, assumed);
        self.single(out, v)
    }

    /// `bfe d, a, p, l` and `bfi d, f, b, p, l` with a known position and length.
    fn bit_field(&self, out: &mut Vec<(usize, Value)>) -> bool {
        let w = self.w;
        match (self.ins.base(), self.ins.operands.as_slice()) {
            ("bfe", [_, a, p, l]) => {
                let (Some(a), Some(p), Some(l)) =
                    (self.src(a, w), self.src(p, 32), self.src(l, 32))
                else {
                    return false;
                };
                match (amount(&p), amount(&l)) {
                    (Some(p), Some(l)) => {
                        self.single(out, self.own(a.bits.bfe(p, l, w, self.signed)))
                    }
                    _ => self.single(out, Value::UNKNOWN),
                }
            }
            ("bfi", [_, f, b, p, l]) => {
                let (Some(f), Some(b), Some(p), Some(l)) = (
                    self.src(f, w),
                    self.src(b, w),
                    self.src(p, 32),
                    self.src(l, 32),
                ) else {
                    return false;
                };
                match (amount(&p), amount(&l)) {
                    (Some(p), Some(l)) => self.single(out, self.own(b.bits.bfi(f.bits, p, l, w))),
                    _ => self.single(out, Value::UNKNOWN),
                }
            }
            _ => self.unknown_all(out),
        }
    }

    /// `cvt` from integer to integer only: no rounding, saturation or floating-point type.
    fn cvt(&self, a: &Operand<'_>, out: &mut Vec<(usize, Value)>) -> bool {
        let (t, n) = types(self.ins);
        let (Some((dw, dk)), Some((sw, sk))) = (t[0], t[1]) else {
            return self.unknown_all(out);
        };
        if n != 2
            || dk == 'f'
            || sk == 'f'
            || self
                .ins
                .qualifiers()
                .any(|q| q.starts_with('r') || q == "sat")
        {
            return self.unknown_all(out);
        }
        let Some(a) = self.src(a, sw) else {
            return false;
        };
        let ext = if sk == 's' {
            a.bits.sign_extend(sw)
        } else {
            a.bits.truncate(sw)
        };
        let v = Value {
            bits: ext.truncate(dw),
            // A widened shared memory address is still one.
            window: a.window && dw >= sw,
            ..Value::UNKNOWN
        }
        .with_origins_of(&[&a], 0);
        self.single(out, v)
    }

    /// `prmt` without a mode, with a known selector.
    fn prmt(
        &self,
        a: &Operand<'_>,
        b: &Operand<'_>,
        c: &Operand<'_>,
        out: &mut Vec<(usize, Value)>,
    ) -> bool {
        if self.ins.qualifiers().count() != 1 {
            // A mode (.f4e, .b4e, .rc8, .ecl, .ecr, .rc16): not modelled.
            return self.unknown_all(out);
        }
        let (Some(a), Some(b), Some(c)) = (self.src(a, 32), self.src(b, 32), self.src(c, 32))
        else {
            return false;
        };
        match amount(&c) {
            Some(sel) => self.single(out, self.own(KnownBits::prmt(a.bits, b.bits, sel))),
            None => self.single(out, Value::UNKNOWN),
        }
    }
}

#[cfg(test)]
mod tests;

/// Most constants [`candidates`] lists.
const MAX_CANDIDATES: usize = 8;

/// The constants a register can hold when every definition of it in `f` is a `mov` of an
/// immediate (guarded or not) or a `selp` between such values: each with the line that writes
/// it. `None` when a definition is anything else, or there are more than
/// eight of them.
#[must_use]
pub fn candidates(f: &Function<'_>, regs: &Registers<'_>, name: &str) -> Option<Vec<(u64, u32)>> {
    let mut out = Vec::new();
    collect_candidates(f, regs, name, 0, &mut out)?;
    (out.len() > 1).then_some(out)
}

fn collect_candidates(
    f: &Function<'_>,
    regs: &Registers<'_>,
    name: &str,
    depth: u32,
    out: &mut Vec<(u64, u32)>,
) -> Option<()> {
    if depth > 4 {
        return None;
    }
    let mut defined = false;
    let sites = regs.ids.get(name).and_then(|&id| regs.def_sites.get(id))?;
    for &k in sites {
        let ins = f.instructions.get(k)?;
        if !matches!(ins.operands.first(), Some(Operand::Name(n)) if *n == name) {
            return None;
        }
        if matches!(effect(ins), Effect::None) {
            continue;
        }
        defined = true;
        let w = width(ins);
        let sources: &[Operand<'_>] = match (ins.base(), ins.operands.as_slice()) {
            ("mov", [_, s]) => core::slice::from_ref(s),
            ("selp", [_, _, _, _]) => &ins.operands[1..3],
            _ => return None,
        };
        for s in sources {
            match s {
                Operand::Imm(v) => {
                    let v = v & width_mask(w);
                    if !out.iter().any(|(x, _)| *x == v) {
                        out.push((v, ins.line));
                    }
                }
                Operand::Name(n) if *n != name => collect_candidates(f, regs, n, depth + 1, out)?,
                _ => return None,
            }
        }
        if out.len() > MAX_CANDIDATES {
            return None;
        }
    }
    defined.then_some(())
}

/// The instructions of `f` that the values of `names` depend on (their definitions, and
/// those of the registers the definitions read, transitively), as a function of its own: the
/// analysis of it gives those registers the same values as the analysis of `f`, at the cost of
/// the slice only.
#[must_use]
pub fn slice<'a>(f: &Function<'a>, regs: &Registers<'a>, names: &[&'a str]) -> Function<'a> {
    let mut keep = alloc::vec![false; f.instructions.len()];
    let mut seen: Vec<bool> = alloc::vec![false; regs.def_sites.len()];
    let mut work: Vec<&str> = names.to_vec();
    while let Some(name) = work.pop() {
        let Some(&id) = regs.ids.get(name) else {
            continue;
        };
        if seen.get(id).copied().unwrap_or(true) {
            continue;
        }
        seen[id] = true;
        for &k in regs.def_sites.get(id).map_or(&[][..], Vec::as_slice) {
            if keep[k] {
                continue;
            }
            keep[k] = true;
            if let Some(ins) = f.instructions.get(k) {
                for op in ins.operands.iter().skip(1) {
                    for_each_name(op, &mut |n| work.push(n));
                }
            }
        }
    }
    Function {
        name: f.name,
        kind: f.kind,
        line: f.line,
        version: f.version,
        target: f.target,
        // The slice keeps only some instructions: label positions would not hold.
        labels: Vec::new(),
        instructions: f
            .instructions
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(i, _)| i.clone())
            .collect(),
    }
}
