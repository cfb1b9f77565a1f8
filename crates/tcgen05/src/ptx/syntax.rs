//! The grammar of every tcgen05 instruction form (PTX ISA 9.7.16.7-9.7.16.10.9), as data, and
//! the mapping of each typed form to and from it ([`crate::ptx::Instruction::spell`],
//! [`crate::ptx::Instruction::from_spelled`]). The spellings of the values are the core's own names
//! ([`Kind::name`], [`LdStShape::name`], ...), listed in the order of each type's `ALL`, so a
//! value's index in a slot is its index there.

use super::grammar::{Family, Grammar, ImmStyle, OperandSlot, Shape, Since, Slot, When};
use super::{Collector, CollectorOp};
use crate::mma::{Kind, ScaleVec};
use crate::targets::Target;
use crate::tensor_memory::{CpMulticast, CpShape, LdStShape, Num};

// ---------------------------------------------------------------------------------------------
// Spellings, from the core's names
// ---------------------------------------------------------------------------------------------

/// The kinds of [`Kind::ALL`], then `ti16` (PTX ISA 9.4 Table 72, `sm_107f`), which the typed
/// form holds as [`crate::ptx::Mma::ti16`]: value 7 of the slot.
const KINDS: [&str; 8] = {
    let mut a = [""; 8];
    let mut i = 0;
    while i < Kind::ALL.len() {
        a[i] = Kind::ALL[i].name();
        i += 1;
    }
    a[7] = "ti16";
    a
};

/// The value of `.kind::ti16` in [`MMA`]'s kind slot.
pub(crate) const KIND_TI16: u16 = 7;

/// `ScaleVec::ALL` without `Default` (which has no spelling).
const SCALE_VECS: [&str; 5] = {
    let mut a = [""; 5];
    let mut i = 0;
    while i < a.len() {
        a[i] = ScaleVec::ALL[i + 1].name();
        i += 1;
    }
    a
};

const LD_ST_SHAPES: [&str; 5] = {
    let mut a = [""; 5];
    let mut i = 0;
    while i < a.len() {
        a[i] = LdStShape::ALL[i].name();
        i += 1;
    }
    a
};

const NUMS: [&str; 8] = {
    let mut a = [""; 8];
    let mut i = 0;
    while i < a.len() {
        a[i] = Num::ALL[i].name();
        i += 1;
    }
    a
};

const CP_SHAPES: [&str; 5] = {
    let mut a = [""; 5];
    let mut i = 0;
    while i < a.len() {
        a[i] = CpShape::ALL[i].name();
        i += 1;
    }
    a
};

/// `CpMulticast::ALL` without `None` (which has no spelling).
const CP_MULTICASTS: [&str; 3] = {
    let mut a = [""; 3];
    let mut i = 0;
    while i < a.len() {
        a[i] = CpMulticast::ALL[i + 1].name();
        i += 1;
    }
    a
};

const COLLECTOR_OPS: [&str; 4] = {
    let mut a = [""; 4];
    let mut i = 0;
    while i < a.len() {
        a[i] = CollectorOp::ALL[i].name();
        i += 1;
    }
    a
};

const COLLECTOR_A: [&str; 4] = ["a::fill", "a::use", "a::lastuse", "a::discard"];
const COLLECTOR_B: [&str; 4] = ["b::fill", "b::use", "b::lastuse", "b::discard"];
const CTA_GROUPS: [&str; 2] = ["1", "2"];
const RED_TYPES: [&str; 4] = ["b32", "f32", "u32", "s32"];

/// PTX ISA 8.7 (`.kind::mxf4nvf4`; PTX ISA 9.7.16.10.9 target notes).
const PTX87: Since = Since::tcgen05(87, Target::Sm100a);
/// PTX ISA 8.8 with the family targets (`.block16`, `.block32`).
const PTX88_FAMILY: Since = Since::tcgen05(88, Target::Sm100f);
/// PTX ISA 8.8 on `sm_101a` (now `sm_110a`), `sm_101f` and `sm_103f` (`tcgen05.ld.red`, PTX ISA
/// 9.7.16.8.3 target notes).
const PTX88_LD_RED: Since = Since::tcgen05(88, Target::Sm110a);

/// PTX ISA 9.4 on the `sm_107` targets (`.kind::ti16`, `.decompress::lut::b`,
/// `.collector::b::*`, the `tcgen05.commit` qualifiers `.sync_restrict::shared::read::mma::a`
/// and `.multicast::cluster::32b`; PTX ISA 9.4 Table 72: `sm_107f`, so `sm_107a` too).
pub(crate) const PTX94_SM107: Since = Since::tcgen05(94, Target::Sm107f);
/// PTX ISA 9.4 on every tcgen05 target (`tcgen05.alloc/dealloc .exclusive`,
/// `.multicast::cluster::16b`): Table 72 lists them for `sm_107f`, ptxas 13.5 assembles them
/// for every tcgen05 target from `.version 9.4` (docs/ptx-9.5.md, rules.md F2).
pub(crate) const PTX94_ALL: Since = Since::tcgen05(94, Target::Sm100a);

const fn cta_group_slot() -> Slot {
    Slot::one_of("cta_group", ".cta_group::", &CTA_GROUPS)
}

// ---------------------------------------------------------------------------------------------
// The grammars
// ---------------------------------------------------------------------------------------------

/// Slot indices of [`MMA`].
pub(crate) mod mma_slot {
    pub(crate) const WS: usize = 1;
    pub(crate) const SP: usize = 2;
    pub(crate) const CTA: usize = 3;
    pub(crate) const KIND: usize = 4;
    pub(crate) const BLOCK_SCALE: usize = 5;
    pub(crate) const DECOMPRESS: usize = 6;
    pub(crate) const SCALE_VEC: usize = 7;
    pub(crate) const ASHIFT: usize = 8;
    pub(crate) const COLLECTOR: usize = 9;
    pub(crate) const COLLECTOR_B: usize = 10;
}

/// Operand indices of [`MMA`].
pub(crate) mod mma_op {
    // A and B are read by `check` only (feature `alloc`).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) const A: usize = 1;
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) const B: usize = 2;
    pub(crate) const SP_META: usize = 3;
    pub(crate) const LUT: usize = 4;
    pub(crate) const IDESC: usize = 5;
    pub(crate) const SCALE_A: usize = 6;
    pub(crate) const SCALE_B: usize = 7;
    pub(crate) const DISABLE: usize = 8;
    pub(crate) const ENABLE: usize = 9;
    pub(crate) const SCALE_INPUT_D: usize = 10;
    pub(crate) const ZMASK: usize = 11;
}

/// `tcgen05.mma{.ws}{.sp}.cta_group.kind{.block_scale}{.decompress::lut::b}{.scale_vec}{.ashift}
/// {.collector::a}{.collector::b}` (PTX ISA 9.7.16.10.9; PTX ISA 9.4 adds `.kind::ti16`,
/// `.decompress::lut::b` with its `[lut-tmem]` operand and the non-`.ws` `.collector::b::*`,
/// in the order rules.md F1 gives).
pub static MMA: Grammar = Grammar {
    name: "tcgen05.mma",
    section: "9.7.16.10.9",
    slots: &[
        Slot::fixed("instruction", &[".mma"]),
        Slot::flag("ws", &[".ws"]),
        Slot::flag("sp", &[".sp"]),
        cta_group_slot(),
        Slot {
            later: &[(6, PTX87), (KIND_TI16, PTX94_SM107)],
            ..Slot::one_of("kind", ".kind::", &KINDS)
        },
        Slot::flag("block_scale", &[".block_scale"]),
        Slot {
            since: PTX94_SM107,
            ..Slot::flag("decompress", &[".decompress::lut::b"])
        },
        Slot {
            required: false,
            needs: Some(mma_slot::BLOCK_SCALE),
            // `.scale_vec::4X` is PTX ISA 8.7 (the target notes; ptxas 13.5: "Feature
            // '.scale_vec::4X' requires PTX ISA .version 8.7 or later").
            later: &[(2, PTX87), (3, PTX88_FAMILY), (4, PTX88_FAMILY)],
            ..Slot::one_of("scale_vec", "", &SCALE_VECS)
        },
        Slot::flag("ashift", &[".ashift"]),
        Slot {
            required: false,
            family: Some(Family::Numbered(&COLLECTOR_OPS)),
            ..Slot::one_of("collector", ".collector::", &COLLECTOR_A)
        },
        Slot {
            required: false,
            since: PTX94_SM107,
            ..Slot::one_of("collector_b", ".collector::", &COLLECTOR_B)
        },
    ],
    operands: &[
        OperandSlot::new("d-tmem", Shape::Addr),
        OperandSlot::new("a-desc", Shape::RegOrAddr),
        OperandSlot::new("b-desc", Shape::Reg),
        OperandSlot::new("sp-meta-tmem", Shape::Addr).when(When::With(mma_slot::SP)),
        OperandSlot::new("lut-tmem", Shape::Addr).when(When::With(mma_slot::DECOMPRESS)),
        OperandSlot::new("idesc", Shape::RegOrImm).imm(ImmStyle::Hex8, u32::MAX as u64),
        OperandSlot::new("scale-A-tmem", Shape::Addr).when(When::With(mma_slot::BLOCK_SCALE)),
        OperandSlot::new("scale-B-tmem", Shape::Addr).when(When::With(mma_slot::BLOCK_SCALE)),
        OperandSlot::new("disable-output-lane", Shape::Vector).when(When::Optional),
        OperandSlot::new("enable-input-d", Shape::RegOrImm).imm(ImmStyle::Dec, 1),
        OperandSlot::new("scale-input-d", Shape::Imm)
            .when(When::OptionalWithout(mma_slot::WS))
            .imm(ImmStyle::Dec, u8::MAX as u64),
        OperandSlot::new("zero-column-mask-desc", Shape::RegOrImm)
            .when(When::OptionalWith(mma_slot::WS))
            .imm(ImmStyle::Hex, u64::MAX),
    ],
};

/// Slot indices of [`LD`].
pub(crate) mod ld_slot {
    pub(crate) const RED: usize = 1;
    pub(crate) const SPCOMPRESS: usize = 2;
    pub(crate) const SYNC: usize = 3;
    pub(crate) const ALIGNED: usize = 4;
    pub(crate) const SHAPE: usize = 5;
    pub(crate) const NUM: usize = 6;
    pub(crate) const PACK: usize = 7;
    pub(crate) const RED_OP: usize = 8;
    pub(crate) const SP: usize = 9;
    pub(crate) const ABS: usize = 10;
    pub(crate) const NAN: usize = 11;
    pub(crate) const TYPE: usize = 12;
    pub(crate) const B2: usize = 13;
}

/// Operand indices of [`LD`].
pub(crate) mod ld_op {
    pub(crate) const MDATA: usize = 0;
    pub(crate) const R: usize = 1;
    pub(crate) const REDVAL: usize = 2;
    pub(crate) const TADDR: usize = 3;
    pub(crate) const OFFSET: usize = 4;
}

/// PTX ISA 9.4 on `sm_107a` only (`tcgen05.ld{.red}.spcompress`: PTX ISA 9.4 Table 72; ptxas
/// 13.5.37 refuses `sm_107f`, docs/ptx-9.5.md).
pub(crate) const PTX94_SM107A: Since = Since::tcgen05(94, Target::Sm107a);

/// `tcgen05.ld{.red}{.spcompress}.sync.aligned.shape.num{.pack::16b}{.op}{.sp::2:4}{.abs}{.NaN}
/// .type{.b2}` (PTX ISA 9.7.16.8.3; `.spcompress`, `.sp::2:4` and `.b2` from PTX ISA 9.4
/// §9.7.18.8.3 as ptxas 13.5.37 takes them, docs/ptx-9.5.md). `.op` and `.abs` go with `.red`
/// or `.spcompress`: which is validation's business.
pub static LD: Grammar = Grammar {
    name: "tcgen05.ld",
    section: "9.7.16.8.3",
    slots: &[
        Slot::fixed("instruction", &[".ld"]),
        Slot {
            since: PTX88_LD_RED,
            ..Slot::flag("red", &[".red"])
        },
        Slot {
            since: PTX94_SM107A,
            ..Slot::flag("spcompress", &[".spcompress"])
        },
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
        Slot::one_of("shape", "", &LD_ST_SHAPES),
        Slot::one_of("num", "", &NUMS),
        Slot::flag("pack", &[".pack::16b"]),
        Slot {
            required: false,
            since: PTX88_LD_RED,
            ..Slot::one_of("op", ".", &["min", "max"])
        },
        Slot {
            needs: Some(ld_slot::SPCOMPRESS),
            since: PTX94_SM107A,
            ..Slot::flag("sp", &[".sp::2:4"])
        },
        Slot {
            since: PTX88_LD_RED,
            ..Slot::flag("abs", &[".abs"])
        },
        Slot {
            needs: Some(ld_slot::RED),
            since: PTX88_LD_RED,
            ..Slot::flag("NaN", &[".NaN"])
        },
        Slot {
            later: &[(1, PTX88_LD_RED), (2, PTX88_LD_RED), (3, PTX88_LD_RED)],
            ..Slot::one_of("type", ".", &RED_TYPES)
        },
        Slot {
            needs: Some(ld_slot::SPCOMPRESS),
            since: PTX94_SM107A,
            ..Slot::flag("metadata type", &[".b2"])
        },
    ],
    operands: &[
        OperandSlot::new("mdata", Shape::Vector).when(When::With(ld_slot::SPCOMPRESS)),
        OperandSlot::new("r", Shape::Vector),
        OperandSlot::new("redval", Shape::Reg).when(When::With(ld_slot::RED)),
        OperandSlot::new("taddr", Shape::Addr),
        OperandSlot::new("immHalfSplitoff", Shape::Imm)
            .when(When::Optional)
            .imm(ImmStyle::Dec, u32::MAX as u64),
    ],
};

/// Slot indices of [`ST`].
pub(crate) mod st_slot {
    pub(crate) const SHAPE: usize = 3;
    pub(crate) const NUM: usize = 4;
    pub(crate) const UNPACK: usize = 5;
}

/// `tcgen05.st.sync.aligned.shape.num{.unpack::16b}.b32` (PTX ISA 9.7.16.8.4).
pub static ST: Grammar = Grammar {
    name: "tcgen05.st",
    section: "9.7.16.8.4",
    slots: &[
        Slot::fixed("instruction", &[".st"]),
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
        Slot::one_of("shape", "", &LD_ST_SHAPES),
        Slot::one_of("num", "", &NUMS),
        Slot::flag("unpack", &[".unpack::16b"]),
        Slot::fixed("type", &[".b32"]),
    ],
    operands: &[
        OperandSlot::new("taddr", Shape::Addr),
        OperandSlot::new("immHalfSplitoff", Shape::Imm)
            .when(When::Optional)
            .imm(ImmStyle::Dec, u32::MAX as u64),
        OperandSlot::new("r", Shape::Vector),
    ],
};

/// Slot indices of [`CP`].
pub(crate) mod cp_slot {
    pub(crate) const CTA: usize = 1;
    pub(crate) const SHAPE: usize = 2;
    pub(crate) const MULTICAST: usize = 3;
    pub const B8X16: usize = 4;
    pub(crate) const SRC_FMT: usize = 5;
}

/// `tcgen05.cp.cta_group.shape{.multicast}{.dst_fmt.src_fmt}` (PTX ISA 9.7.16.9.2).
pub static CP: Grammar = Grammar {
    name: "tcgen05.cp",
    section: "9.7.16.9.2",
    slots: &[
        Slot::fixed("instruction", &[".cp"]),
        cta_group_slot(),
        Slot::one_of("shape", "", &CP_SHAPES),
        Slot {
            required: false,
            ..Slot::one_of("multicast", "", &CP_MULTICASTS)
        },
        Slot {
            needs: Some(cp_slot::SRC_FMT),
            ..Slot::flag("dst_fmt", &[".b8x16"])
        },
        Slot {
            required: false,
            needs: Some(cp_slot::B8X16),
            ..Slot::one_of("src_fmt", "", &[".b6x16_p32", ".b4x16_p64"])
        },
    ],
    operands: &[
        OperandSlot::new("taddr", Shape::Addr),
        OperandSlot::new("s-desc", Shape::RegOrImm).imm(ImmStyle::Hex, u64::MAX),
    ],
};

/// `tcgen05.shift.cta_group.down` (PTX ISA 9.7.16.9.3).
pub static SHIFT: Grammar = Grammar {
    name: "tcgen05.shift",
    section: "9.7.16.9.3",
    slots: &[
        Slot::fixed("instruction", &[".shift"]),
        cta_group_slot(),
        Slot::fixed("direction", &[".down"]),
    ],
    operands: &[OperandSlot::new("taddr", Shape::Addr)],
};

/// `.exclusive` of `tcgen05.alloc` / `tcgen05.dealloc` (PTX ISA 9.4; rules.md F2).
const fn exclusive_slot() -> Slot {
    Slot {
        since: PTX94_ALL,
        ..Slot::flag("exclusive", &[".exclusive"])
    }
}

/// Slot index of `.exclusive` in [`ALLOC`] and [`DEALLOC`].
pub(crate) const ALLOC_EXCLUSIVE: usize = 1;

/// `tcgen05.alloc{.exclusive}.cta_group.sync.aligned.shared::cta.b32` (PTX ISA 9.7.16.7.1;
/// `.exclusive` from PTX ISA 9.4).
pub static ALLOC: Grammar = Grammar {
    name: "tcgen05.alloc",
    section: "9.7.16.7.1",
    slots: &[
        Slot::fixed("instruction", &[".alloc"]),
        exclusive_slot(),
        cta_group_slot(),
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
        Slot::fixed("state_space", &[".shared::cta"]),
        Slot::fixed("type", &[".b32"]),
    ],
    operands: &[
        OperandSlot::new("dst", Shape::Addr),
        OperandSlot::new("nCols", Shape::RegOrImm).imm(ImmStyle::Dec, u32::MAX as u64),
    ],
};

/// `tcgen05.dealloc{.exclusive}.cta_group.sync.aligned.b32` (PTX ISA 9.7.16.7.1;
/// `.exclusive` from PTX ISA 9.4).
pub static DEALLOC: Grammar = Grammar {
    name: "tcgen05.dealloc",
    section: "9.7.16.7.1",
    slots: &[
        Slot::fixed("instruction", &[".dealloc"]),
        exclusive_slot(),
        cta_group_slot(),
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
        Slot::fixed("type", &[".b32"]),
    ],
    operands: &[
        OperandSlot::new("taddr", Shape::Reg),
        OperandSlot::new("nCols", Shape::RegOrImm).imm(ImmStyle::Dec, u32::MAX as u64),
    ],
};

/// `tcgen05.relinquish_alloc_permit.cta_group.sync.aligned` (PTX ISA 9.7.16.7.1).
pub static RELINQUISH: Grammar = Grammar {
    name: "tcgen05.relinquish_alloc_permit",
    section: "9.7.16.7.1",
    slots: &[
        Slot::fixed("instruction", &[".relinquish_alloc_permit"]),
        cta_group_slot(),
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
    ],
    operands: &[],
};

/// Slot index of `.sync_restrict::shared::read::mma::a` in [`COMMIT`].
pub(crate) const COMMIT_SYNC_RESTRICT: usize = 3;
/// Slot index of `.multicast::cluster{::16b,::32b}` in [`COMMIT`].
pub(crate) const COMMIT_MULTICAST: usize = 5;

/// `tcgen05.commit.cta_group.mbarrier::arrive::one{.sync_restrict::shared::read::mma::a}
/// .shared::cluster{.multicast::cluster{::16b,::32b}}.b64` (PTX ISA 9.7.16, `tcgen05.commit`,
/// anchor `#tcgen05-instructions-tcgen05-commit`; the PTX ISA 9.4 qualifiers in the order of
/// rules.md F1).
pub static COMMIT: Grammar = Grammar {
    name: "tcgen05.commit",
    section: "9.7.16 (tcgen05.commit)",
    slots: &[
        Slot::fixed("instruction", &[".commit"]),
        cta_group_slot(),
        Slot::fixed("completion", &[".mbarrier::arrive::one"]),
        Slot {
            since: PTX94_SM107,
            ..Slot::flag("sync_restrict", &[".sync_restrict::shared::read::mma::a"])
        },
        Slot::fixed("state_space", &[".shared::cluster"]),
        Slot {
            required: false,
            later: &[(1, PTX94_ALL), (2, PTX94_SM107)],
            ..Slot::one_of(
                "multicast",
                "",
                &[
                    ".multicast::cluster",
                    ".multicast::cluster::16b",
                    ".multicast::cluster::32b",
                ],
            )
        },
        Slot::fixed("type", &[".b64"]),
    ],
    operands: &[
        OperandSlot::new("mbar", Shape::Addr),
        OperandSlot::new("ctaMask", Shape::RegOrImm)
            .when(When::With(COMMIT_MULTICAST))
            .imm(ImmStyle::Hex, u16::MAX as u64),
    ],
};

/// `tcgen05.fence::before_thread_sync` / `::after_thread_sync` (PTX ISA 9.7.16, `tcgen05.fence`,
/// anchor `#tcgen05-instructions-tcgen05-fence`).
pub static FENCE: Grammar = Grammar {
    name: "tcgen05.fence",
    section: "9.7.16 (tcgen05.fence)",
    slots: &[Slot::one_of(
        "instruction",
        ".",
        &["fence::before_thread_sync", "fence::after_thread_sync"],
    )],
    operands: &[],
};

/// `tcgen05.wait::ld.sync.aligned` / `wait::st` (PTX ISA 9.7.16.8.5).
pub static WAIT: Grammar = Grammar {
    name: "tcgen05.wait",
    section: "9.7.16.8.5",
    slots: &[
        Slot::one_of("instruction", ".", &["wait::ld", "wait::st"]),
        Slot::fixed("sync", &[".sync"]),
        Slot::fixed("aligned", &[".aligned"]),
    ],
    operands: &[],
};

/// Every form's grammar.
pub static GRAMMARS: [&Grammar; 11] = [
    &MMA,
    &LD,
    &ST,
    &CP,
    &SHIFT,
    &ALLOC,
    &DEALLOC,
    &RELINQUISH,
    &COMMIT,
    &FENCE,
    &WAIT,
];

impl Collector {
    /// The collector a name spells: the qualifier as PTX writes it, with or without
    /// `.collector::` (`"a::fill"`, `".collector::b2::lastuse"`), in any case, read by the
    /// grammar's collector slot ([`MMA`]); any byte N of `bN` (validation keeps it to
    /// 0-3). `None` for anything else.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Collector> {
        let mut buf = [0u8; 32];
        let t = name.trim_ascii();
        let t = t.strip_prefix('.').unwrap_or(t);
        let lower = buf.get_mut(..t.len())?;
        lower.copy_from_slice(t.as_bytes());
        lower.make_ascii_lowercase();
        let t = core::str::from_utf8(lower).ok()?;
        let t = t.strip_prefix("collector::").unwrap_or(t);
        let slot = &MMA.slots[mma_slot::COLLECTOR];
        slot.value_after_prefix(t).map(collector_of_value)
    }
}

/// The collector qualifier that value `v` of [`MMA`]'s collector slot spells: `a::op` for the
/// first four, `bN::op` after them.
#[must_use]
pub(crate) fn collector_of_value(v: u16) -> Collector {
    let v = usize::from(v);
    let ops = CollectorOp::ALL;
    if v < ops.len() {
        Collector::A(ops[v])
    } else {
        let n = (v - ops.len()) / ops.len();
        Collector::B(u8::try_from(n).unwrap_or(u8::MAX), ops[v % ops.len()])
    }
}

/// The version and target that introduced `name`, as messages name a form or qualifier: a
/// form (`"tcgen05.mma"`), a form and one qualifier (`"tcgen05.ld.red"`), or a qualifier with
/// its dot (`".block32"`, `".kind::mxf4nvf4"`); `None` for anything else (a target name).
#[must_use]
pub fn introduced(name: &str) -> Option<Since> {
    for g in GRAMMARS {
        if name == g.name {
            return Some(g.slots[0].since);
        }
        let qualifier = name.strip_prefix(g.name).unwrap_or(name);
        let Some(text) = qualifier.strip_prefix('.') else {
            continue;
        };
        for slot in g.slots.iter().skip(1) {
            if let Some(v) = slot.value_of(text) {
                return Some(slot.since_of(v));
            }
        }
    }
    None
}
