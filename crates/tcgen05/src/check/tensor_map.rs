//! The swizzling mode of a tensor map against that of the shared memory descriptors that read
//! the buffer it fills.
//!
//! A `cp.async.bulk.tensor` copy into shared memory writes its box in the tensor map's
//! swizzle pattern (PTX ISA 9.7.9.25, 5.5.5); a `tcgen05.mma` reading that buffer must describe
//! the same pattern in its descriptor's bits 61-63 (Table 40). A host map is named by the
//! kernel parameter that holds it (`--tensor-map NAME=swizzle:MODE`). The copy's tensor-map
//! operand and destination, and the descriptor's start address, are followed back through
//! registers written once (`mov`, `cvta`, `cvt`, `add`/`sub` of a constant, `add` of a register
//! as an unknown offset; for the descriptor
//! also `mov.b64 {lo, hi}`, `or` of a constant high part, `and` with 0x3fff, `shr` by 4,
//! `bfe.u32 .., 4, n` for n of 14 or more) to a symbol plus an offset. A descriptor is linked
//! to the copy of the same symbol whose destination is the closest at or below its start when
//! every offset is a constant, or else to the copies of that symbol when they all share one
//! swizzle (a stage index times the stage's size); never where a copy of another map, or to
//! an address not followed, may write the symbol. One that cannot be linked gives no finding
//! and is counted.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{CheckRule, FindingValue, OperandName, Report};
use crate::ptx_reader::{Function, Instruction, Module, Operand};
use crate::shared_memory_descriptor::Swizzle;

/// A host tensor map: the kernel parameter that holds it and its swizzling mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap<'n> {
    /// The `.param` name (Triton and CUTLASS pass the map as `.param .align 64 .b8 name[128]`).
    pub param: &'n str,
    /// Its swizzling mode.
    pub swizzle: Swizzle,
}

/// How many descriptors were linked to a copy and how many could not be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Linked {
    /// Descriptors linked to a copy through a given map.
    pub linked: usize,
    /// Descriptors of MMAs that could not be linked (an address not followed to a symbol, or
    /// no copy of a given map into that symbol).
    pub unlinked: usize,
}

/// The most definitions followed back from one operand.
const MAX_DEPTH: u32 = 16;

/// The instructions of a function by the register they write, found once.
struct Defs<'f, 'a> {
    f: &'f Function<'a>,
    /// Per register: the index of the only instruction that writes it (`None` for several).
    once: BTreeMap<&'a str, Option<usize>>,
}

impl<'f, 'a> Defs<'f, 'a> {
    fn new(f: &'f Function<'a>) -> Self {
        let mut once = BTreeMap::new();
        let mut w = Vec::new();
        for (k, ins) in f.instructions.iter().enumerate() {
            w.clear();
            if let Some(d) = ins.operands.first() {
                d.destination_names(&mut w);
            }
            for n in &w {
                once.entry(*n).and_modify(|e| *e = None).or_insert(Some(k));
            }
        }
        Defs { f, once }
    }

    /// The only instruction that writes register `name`.
    fn only(&self, name: &str) -> Option<&'f Instruction<'a>> {
        let k = (*self.once.get(name)?)?;
        self.f.instructions.get(k)
    }
}

/// An immediate as a signed number (the reader keeps its 64-bit two's-complement pattern).
fn imm(op: &Operand<'_>) -> Option<i64> {
    match op {
        Operand::Imm(v) => Some(i64::from_ne_bytes(v.to_ne_bytes())),
        _ => None,
    }
}

/// A shared memory address: a symbol plus a byte offset, when the offset is a constant.
type Addr<'a> = (&'a str, Option<i64>);

/// The operand as a symbol plus a byte offset (an unknown offset where a register is added).
fn symbolic<'a>(f: &Defs<'_, 'a>, op: &Operand<'a>, depth: u32) -> Option<Addr<'a>> {
    if depth > MAX_DEPTH {
        return None;
    }
    match op {
        Operand::Name(n) if !n.starts_with('%') => Some((n, Some(0))),
        Operand::Name(n) => {
            let d = f.only(n)?;
            let (a, b) = (d.operands.get(1)?, d.operands.get(2));
            match d.base() {
                "mov" | "cvta" | "cvt" => symbolic(f, a, depth + 1),
                "add" => match (imm(a), b.and_then(imm)) {
                    (None, Some(k)) => Some(plus(symbolic(f, a, depth + 1)?, k)),
                    (Some(k), None) => Some(plus(symbolic(f, b?, depth + 1)?, k)),
                    // A symbol plus a register (a stage times the stage's size).
                    (None, None) => {
                        let (x, y) = (symbolic(f, a, depth + 1), symbolic(f, b?, depth + 1));
                        match (x, y) {
                            (Some((s, _)), None) | (None, Some((s, _))) => Some((s, None)),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                "sub" => Some(plus(symbolic(f, a, depth + 1)?, -b.and_then(imm)?)),
                _ => None,
            }
        }
        Operand::Address {
            base: Some(b),
            offset,
        } => Some(plus(symbolic(f, &Operand::Name(b), depth + 1)?, *offset)),
        _ => None,
    }
}

fn plus((s, o): Addr<'_>, k: i64) -> Addr<'_> {
    (s, o.and_then(|o| o.checked_add(k)))
}

/// The start address of a shared memory descriptor as a symbol plus a byte offset.
fn descriptor_start<'a>(f: &Defs<'_, 'a>, op: &Operand<'a>, depth: u32) -> Option<Addr<'a>> {
    let Operand::Name(n) = op else { return None };
    if depth > MAX_DEPTH || !n.starts_with('%') {
        return None;
    }
    let d = f.only(n)?;
    let (a, b) = (d.operands.get(1)?, d.operands.get(2));
    match (d.base(), a, b.and_then(imm)) {
        ("mov", Operand::Vector(v), _) => start_field(f, v.first()?, depth + 1),
        ("mov" | "cvt", _, None) if b.is_none() => descriptor_start(f, a, depth + 1),
        ("or", _, Some(k)) if k & 0x3fff == 0 => descriptor_start(f, a, depth + 1),
        ("add", _, Some(k)) if (0..0x4000).contains(&k) => {
            Some(plus(descriptor_start(f, a, depth + 1)?, k * 16))
        }
        _ => None,
    }
}

/// A descriptor's low word: the start address field (`(addr >> 4) & 0x3fff`), as the byte
/// address it encodes.
fn start_field<'a>(f: &Defs<'_, 'a>, op: &Operand<'a>, depth: u32) -> Option<Addr<'a>> {
    let Operand::Name(n) = op else { return None };
    if depth > MAX_DEPTH || !n.starts_with('%') {
        return None;
    }
    let d = f.only(n)?;
    let ops = &d.operands;
    let a = ops.get(1)?;
    let k = |i: usize| ops.get(i).and_then(imm);
    match d.base() {
        "mov" | "cvt" if ops.len() == 2 => start_field(f, a, depth + 1),
        "and" if k(2) == Some(0x3fff) => start_field(f, a, depth + 1),
        "shr" if k(2) == Some(4) => symbolic(f, a, depth + 1),
        // Triton extracts 15 bits: a shared address is below 2^18, so bits 14 and up of
        // the field are 0 whatever the length.
        "bfe" if k(2) == Some(4) && k(3).is_some_and(|n| (14..=28).contains(&n)) => {
            symbolic(f, a, depth + 1)
        }
        "add" => Some(plus(start_field(f, a, depth + 1)?, k(2)? * 16)),
        _ => None,
    }
}

/// One copy of a given map into shared memory.
struct Copy<'a> {
    symbol: &'a str,
    offset: Option<i64>,
    swizzle: Swizzle,
    line: u32,
}

/// The copies of given maps into shared memory, and whether a copy of another map (or to an
/// address not followed) may write the same buffers: the symbols such copies write (`None`
/// for an address not followed, which may be any).
fn copies<'a>(f: &Defs<'_, 'a>, maps: &[TensorMap<'_>]) -> (Vec<Copy<'a>>, Vec<Option<&'a str>>) {
    let mut out = Vec::new();
    let mut others = Vec::new();
    for ins in &f.f.instructions {
        if !ins.opcode.starts_with("cp.async.bulk.tensor") || !ins.opcode.contains(".shared::") {
            continue;
        }
        let (Some(dst), Some(src)) = (ins.operands.first(), ins.operands.get(1)) else {
            continue;
        };
        let written = symbolic(f, dst, 0);
        let map = match symbolic(f, src, 0) {
            Some((map, Some(0))) => maps.iter().find(|m| m.param == map),
            _ => None,
        };
        match (map, written) {
            (Some(m), Some((symbol, offset))) => out.push(Copy {
                symbol,
                offset,
                swizzle: m.swizzle,
                line: ins.line,
            }),
            (_, w) => others.push(w.map(|(s, _)| s)),
        }
    }
    (out, others)
}

/// The copy that fills the buffer a descriptor starting at `start` reads: with every copy
/// into its symbol at a constant offset, the closest at or below the start; otherwise the
/// only swizzle every copy into the symbol shares. `None` when another copy may write there.
fn filling<'c, 'a>(
    copies: &'c [Copy<'a>],
    others: &[Option<&'a str>],
    (symbol, offset): Addr<'a>,
) -> Option<&'c Copy<'a>> {
    if others.iter().any(|o| o.is_none_or(|s| s == symbol)) {
        return None;
    }
    let into: Vec<&Copy<'a>> = copies.iter().filter(|c| c.symbol == symbol).collect();
    let all_known = into.iter().all(|c| c.offset.is_some());
    match offset {
        Some(o) if all_known => into
            .into_iter()
            .filter(|c| c.offset.is_some_and(|c| c <= o))
            .max_by_key(|c| c.offset),
        _ => {
            let first = *into.first()?;
            into.iter()
                .all(|c| c.swizzle == first.swizzle)
                .then_some(first)
        }
    }
}

/// The descriptor's mode and the map's, as one name (the finding's value).
fn pair_name(desc: Swizzle, map: Swizzle) -> &'static str {
    const NAMES: [[&str; 5]; 5] = [
        [
            "none",
            "none (the tensor map's 128B_base32B)",
            "none (the tensor map's 128B)",
            "none (the tensor map's 64B)",
            "none (the tensor map's 32B)",
        ],
        [
            "128B_base32B (the tensor map's none)",
            "128B_base32B",
            "128B_base32B (the tensor map's 128B)",
            "128B_base32B (the tensor map's 64B)",
            "128B_base32B (the tensor map's 32B)",
        ],
        [
            "128B (the tensor map's none)",
            "128B (the tensor map's 128B_base32B)",
            "128B",
            "128B (the tensor map's 64B)",
            "128B (the tensor map's 32B)",
        ],
        [
            "64B (the tensor map's none)",
            "64B (the tensor map's 128B_base32B)",
            "64B (the tensor map's 128B)",
            "64B",
            "64B (the tensor map's 32B)",
        ],
        [
            "32B (the tensor map's none)",
            "32B (the tensor map's 128B_base32B)",
            "32B (the tensor map's 128B)",
            "32B (the tensor map's 64B)",
            "32B",
        ],
    ];
    let at = |s: Swizzle| Swizzle::ALL.iter().position(|x| *x == s).unwrap_or(0);
    NAMES[at(desc)][at(map)]
}

/// Compares the swizzling mode of every MMA descriptor of `module` that reads a buffer one of
/// `maps` fills with that map's, adding a finding to `report` (from [`super::check_module`]
/// on the same module) for each mismatch.
pub fn tensor_map_swizzles(
    module: &Module<'_>,
    report: &mut Report<'_>,
    maps: &[TensorMap<'_>],
) -> Linked {
    let mut out = Linked::default();
    if maps.is_empty() {
        return out;
    }
    for f in &module.functions {
        let defs = Defs::new(f);
        let (copies, others) = copies(&defs, maps);
        for ins in f
            .instructions
            .iter()
            .filter(|i| i.opcode.starts_with("tcgen05.mma"))
        {
            let Some(r) = report
                .instructions
                .iter_mut()
                .find(|r| r.line == ins.line && r.column == ins.column)
            else {
                continue;
            };
            let operands = [
                (1, OperandName::ADesc, r.a_desc),
                (2, OperandName::BDesc, r.b_desc),
            ];
            for (at, name, bits) in operands {
                let Some(bits) = bits else { continue };
                let start = ins
                    .operands
                    .get(at)
                    .and_then(|o| descriptor_start(&defs, o, 0));
                let copy = start.and_then(|st| filling(&copies, &others, st));
                let Some(copy) = copy else {
                    out.unlinked += 1;
                    continue;
                };
                out.linked += 1;
                let mask = 0b111 << 61;
                if bits.known & mask != mask {
                    continue;
                }
                let code = ((bits.value >> 61) & 0b111) as u8;
                let Ok(desc) = Swizzle::from_code(code) else {
                    continue;
                };
                if desc != copy.swizzle {
                    r.findings.push(CheckRule::TensorMapSwizzle.finding(
                        Some(name),
                        "swizzle",
                        FindingValue::Name(pair_name(desc, copy.swizzle)),
                        copy.line,
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{tensor_map_swizzles, Linked, TensorMap};
    use crate::check::{check_module, Options};
    use crate::ptx_reader::read;
    use crate::shared_memory_descriptor::Swizzle;

    /// A Triton-style kernel: the map is a `.param .b8 [128]`, the copy writes
    /// `global_smem + 16384`, the descriptor packs `bfe(addr, 4, 14)` with the constant high
    /// word `high` (bits 61-63: the swizzle), and a second MMA steps K by 32 bytes.
    fn kernel(high: u32) -> String {
        alloc::format!(
            ".version 8.7\n.target sm_100a\n.address_size 64\n\
             .extern .shared .align 1024 .b8 global_smem[];\n\
             .visible .entry k(.param .align 64 .b8 desc_a[128]) {{\n\
             .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<2>;\n\
             mov.u64 %rd1, desc_a;\n\
             mov.u32 %r1, global_smem;\n\
             add.s32 %r2, %r1, 16384;\n\
             cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1, {{%r3, %r4}}], [%r5];\n\
             bfe.u32 %r6, %r2, 4, 15;\n\
             mov.b32 %r7, {high};\n\
             mov.b64 %rd2, {{%r6, %r7}};\n\
             mov.b32 %r8, 136381584;\n\
             tcgen05.mma.cta_group::1.kind::f16 [%r9], %rd2, %rd2, %r8, %p1;\n\
             add.s64 %rd3, %rd2, 2;\n\
             tcgen05.mma.cta_group::1.kind::f16 [%r9], %rd3, %rd3, %r8, %p1;\n\
             ret;\n}}\n"
        )
    }

    /// (rule id, line, operand, text) of every finding, and the link counts.
    fn run(src: &str, swizzle: Swizzle) -> (Vec<(&'static str, u32, String)>, Linked) {
        let m = read(src.as_bytes());
        let mut r = check_module(&m, &Options::default());
        let maps = [TensorMap {
            param: "desc_a",
            swizzle,
        }];
        let linked = tensor_map_swizzles(&m, &mut r, &maps);
        let f = r
            .instructions
            .iter()
            .flat_map(|i| &i.findings)
            .filter(|f| f.rule_id() == "check.tensor_map_swizzle")
            .map(|f| (f.rule_id(), f.line, alloc::format!("{f}")))
            .collect();
        (f, linked)
    }

    #[test]
    fn a_128b_map_read_through_a_64b_descriptor_is_refused() {
        // 0x80004040: bits 61-63 = 4 (64B), SBO 1024 bytes.
        let (f, linked) = run(&kernel(0x8000_4040), Swizzle::B128);
        assert_eq!(linked.linked, 4, "{linked:?}");
        assert_eq!(f.len(), 4, "{f:?}");
        assert_eq!(f[0].1, 10, "the copy's line");
        assert!(f[0].2.contains("64B (the tensor map's 128B)"), "{}", f[0].2);
        // 0x40004040: bits 61-63 = 2 (128B), as the map.
        let (f, linked) = run(&kernel(0x4000_4040), Swizzle::B128);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!(linked.linked, 4);
    }

    #[test]
    fn a_stage_indexed_buffer_links_through_the_swizzle_its_copies_share() {
        // Triton's pipelined loop: global_smem + 16384 + stage * 16384, stage at run time.
        let src = kernel(0x8000_4040).replace(
            "add.s32 %r2, %r1, 16384;\n",
            "shl.b32 %r10, %r11, 14;\nadd.s32 %r12, %r1, %r10;\nadd.s32 %r2, %r12, 16384;\n",
        );
        let (f, linked) = run(&src, Swizzle::B128);
        assert_eq!(linked.linked, 4, "{linked:?}");
        assert_eq!(f.len(), 4, "{f:?}");
        // A copy of a map not given into the same symbol: it may fill the buffer, so no link.
        let other = src.replace(
            "bfe.u32 %r6",
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd9, {%r3, %r4}], [%r5];\nbfe.u32 %r6",
        );
        let (f, linked) = run(&other, Swizzle::B128);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!((linked.linked, linked.unlinked), (0, 4));
    }

    #[test]
    fn a_descriptor_that_cannot_be_linked_is_counted_not_reported() {
        // The copy's destination written twice: not followed.
        let src = kernel(0x8000_4040).replace(
            "add.s32 %r2, %r1, 16384;\n",
            "add.s32 %r2, %r1, 16384;\nadd.s32 %r2, %r2, 0;\n",
        );
        let (f, linked) = run(&src, Swizzle::B128);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!((linked.linked, linked.unlinked), (0, 4));
    }
}
