//! Matrix shapes of `tcgen05.mma` (PTX ISA 9.7.16.2.1, Table 39) and validation of a whole MMA
//! configuration.
//!
//! Table 39 is the source of truth for M, N and K (rules.md R14): for each kind, `.ws` or
//! not, `.cta_group` and dense or sparse, it lists the valid M, the valid N and the implied K.
//! [`TABLE_39`] holds those rows as data; [`validate_mma`] checks a configuration against them
//! and against the rules of rules.md R11-R18 that involve more than the instruction
//! descriptor; [`shapes`] enumerates every valid `(kind, cta_group, ws, sparse, M, N, K)` for a
//! target.
//!
//! ```
//! use tcgen05::shapes::{validate_mma, MmaConfig};
//! use tcgen05::instruction_descriptor::IdescFields;
//! use tcgen05::{CtaGroup, ElementType::*, Kind, Target};
//!
//! // i8 with cta_group::1 allows N = 24 (R14: CUTLASS rejects it, Table 39 does not).
//! let ok = MmaConfig::new(IdescFields::new(Kind::I8, S32, S8, S8, 128, 24));
//! assert!(validate_mma(&ok).is_empty());
//!
//! // ... but cta_group::2 needs N in steps of 32.
//! let bad = MmaConfig { cta_group: CtaGroup::Two, ..MmaConfig::new(IdescFields::new(Kind::I8, S32, S8, S8, 256, 48)) };
//! assert_eq!(validate_mma(&bad).first_error().map(|e| e.to_string()),
//!            Some("N = 48 is not valid for .kind::i8 cta_group::2 dense (valid: 32..=256 step 32)".into()));
//! ```

use core::fmt;

use crate::diagnostic::{Diagnostic, Diagnostics, Rule, Severity, Source};
use crate::instruction_descriptor::scale_format::two_bit_field_error;
use crate::instruction_descriptor::{IdescError, IdescFields};
use crate::mma::{CtaGroup, ElementType, Kind, Major, MaxShift};
use crate::shared_memory_descriptor::Swizzle;
use crate::targets::Target;

use super::table_39::m_in;
pub use super::table_39::{find_rule, NSet, ShapeRule, TABLE_39};

/// True when the target offers the row at all (rules.md R15, R17).
#[must_use]
pub const fn rule_on_target(rule: &ShapeRule, target: Target) -> bool {
    if matches!(rule.kind, Kind::I8) && !target.supports_kind_i8() {
        return false;
    }
    if matches!(rule.kind, Kind::Mxf4 | Kind::Mxf4nvf4)
        && rule.sparse
        && !target.supports_sparse_mxf4()
    {
        return false;
    }
    if rule.k == 96 && !target.supports_k96() {
        return false;
    }
    true
}

/// Everything about one `tcgen05.mma` that the shape and field rules depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaConfig {
    /// The instruction descriptor's fields (kind, types, M, N, sparsity, majors, negates,
    /// saturate, max shift, scale factors, K = 96).
    pub idesc: IdescFields,
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// `tcgen05.mma.ws` (weight-stationary).
    pub ws: bool,
    /// The compilation target.
    pub target: Target,
    /// The swizzling mode of A's shared memory descriptor, when A is in shared memory and the
    /// caller wants rules.md R18 checked.
    pub a_swizzle: Option<Swizzle>,
    /// The swizzling mode of B's shared memory descriptor, for rules.md R18.
    pub b_swizzle: Option<Swizzle>,
}

impl MmaConfig {
    /// A `.cta_group::1`, non-`.ws` MMA on `sm_100a`, the command-line tool's defaults.
    #[must_use]
    pub const fn new(idesc: IdescFields) -> Self {
        Self {
            idesc,
            cta_group: CtaGroup::One,
            ws: false,
            target: Target::DEFAULT,
            a_swizzle: None,
            b_swizzle: None,
        }
    }

    /// The same configuration with the swizzling modes of A's and B's shared memory
    /// descriptors, so that [`validate_mma`] checks them against the operands' major-ness
    /// (rules.md R18).
    #[must_use]
    pub const fn with_swizzles(mut self, a: Option<Swizzle>, b: Option<Swizzle>) -> Self {
        self.a_swizzle = a;
        self.b_swizzle = b;
        self
    }
}

/// True when an operand of type `ty` and major-ness `major` may use `swizzle` (rules.md
/// R18; PTX ISA 9.7.16.10.3): K-major operands take every mode but 128-Byte with 32-Byte
/// atomicity; MN-major 8- and 16-bit operands the same; MN-major tf32 only that mode.
#[must_use]
pub const fn swizzle_allowed(ty: ElementType, major: Major, swizzle: Swizzle) -> bool {
    let base32 = matches!(swizzle, Swizzle::B128Base32B);
    match major {
        Major::K => !base32,
        Major::Mn => {
            if matches!(ty, ElementType::Tf32) {
                base32
            } else {
                !base32
            }
        }
    }
}

/// Capacity of the problem list of [`validate_mma`].
pub const MAX_PROBLEMS: usize = 40;

/// What makes an MMA configuration invalid beyond its instruction descriptor's own fields; its
/// source and severity are those of its rule's row ([`MmaError::rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MmaError {
    /// A problem of the instruction descriptor's fields.
    Idesc(IdescError),
    /// Table 39 has no row for this kind, `.ws`, `.cta_group` and sparsity
    /// (rules.md R16: `.ws` is `.cta_group::1` only and not for the block-scaled kinds).
    NoSuchRow {
        /// The kind.
        kind: Kind,
        /// `.ws`.
        ws: bool,
        /// `.cta_group`.
        cta_group: CtaGroup,
        /// Sparsity.
        sparse: bool,
    },
    /// M not in the row's list (Table 39).
    M {
        /// M.
        m: u16,
        /// The row.
        rule: &'static ShapeRule,
    },
    /// N not in the row's set (Table 39, rules.md R14).
    N {
        /// N.
        n: u16,
        /// The row.
        rule: &'static ShapeRule,
    },
    /// 8-bit MN-major B needs N in steps of 16 (`.cta_group::1`) or 32 (`.cta_group::2`)
    /// (rules.md R14; PTX ISA 9.7.16.10.1).
    NForMnMajor8Bit {
        /// N.
        n: u16,
        /// The step required.
        step: u16,
    },
    /// The kind is not available on the target (`.kind::i8` only on `sm_100a` / `sm_110a`;
    /// rules.md R17).
    KindNotOnTarget {
        /// The kind.
        kind: Kind,
        /// The target.
        target: Target,
    },
    /// Sparse `.kind::mxf4` / `.kind::mxf4nvf4` need an `a` target (rules.md R17).
    SparseNotOnTarget {
        /// The kind.
        kind: Kind,
        /// The target.
        target: Target,
    },
    /// K = 96 needs `sm_103a` or `sm_107a` (PTX ISA 9.7.16.2.1.1, 9.4 Table 72; rules.md R15).
    K96NotOnTarget {
        /// The target.
        target: Target,
    },
    /// K = 96 outside its only row: dense, `.cta_group::2`, M = 256 (rules.md R15).
    K96Shape {
        /// `.cta_group`.
        cta_group: CtaGroup,
        /// M.
        m: u16,
    },
    /// A non-zero maximum shift on an MMA that is not `.ws` (rules.md R11).
    MaxShiftWithoutWs {
        /// The shift.
        max_shift: MaxShift,
    },
    /// A swizzling mode that the operand's major-ness and type do not allow (rules.md R18).
    SwizzleForMajor {
        /// True for A, false for B.
        a: bool,
        /// The operand's type.
        ty: ElementType,
        /// The operand's major-ness (from the transpose bit).
        major: Major,
        /// The swizzling mode.
        swizzle: Swizzle,
    },
    /// On a target whose scale format is bits 23-24 (`sm_107a` / `sm_107f`; rules.md D9),
    /// bits 23-24 hold code 3, which names no format, or a format the kind does not take
    /// (UE5M3, code 2, is `.kind::mxf4nvf4`'s only; D7). Reported instead of Tables 43-44's
    /// reserved bit 24, which these targets give a meaning.
    ScaleFormat {
        /// Bits 23-24.
        code: u8,
        /// The kind.
        kind: Kind,
        /// The target.
        target: Target,
    },
}

/// The rules of an MMA configuration beyond its instruction descriptor's own fields, one per
/// [`MmaError`] variant (two for [`MmaError::NoSuchRow`]), each with one row
/// ([`MmaRule::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
#[repr(u8)]
pub enum MmaRule {
    /// [`MmaError::NoSuchRow`] without `.ws`.
    NoSuchRow,
    /// [`MmaError::NoSuchRow`] with `.ws`.
    WsNoSuchRow,
    /// [`MmaError::M`].
    M,
    /// [`MmaError::N`].
    N,
    /// [`MmaError::NForMnMajor8Bit`].
    NForMnMajor8Bit,
    /// [`MmaError::KindNotOnTarget`].
    KindNotOnTarget,
    /// [`MmaError::SparseNotOnTarget`].
    SparseNotOnTarget,
    /// [`MmaError::K96NotOnTarget`].
    K96NotOnTarget,
    /// [`MmaError::K96Shape`].
    K96Shape,
    /// [`MmaError::MaxShiftWithoutWs`].
    MaxShiftWithoutWs,
    /// [`MmaError::SwizzleForMajor`].
    SwizzleForMajor,
    /// [`MmaError::ScaleFormat`].
    ScaleFormat,
}

impl MmaRule {
    /// The rule's row: identifier, source, severity and statement.
    #[must_use]
    pub const fn row(self) -> &'static Rule {
        &MMA_RULES[self as usize]
    }

    /// The rule's stable identifier, for example `"mma.m"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.row().id
    }
}

const ERROR: Severity = Severity::Error;

/// Every rule of an MMA configuration beyond the instruction descriptor's fields (Table 39,
/// rules.md R11, R14-R18), indexed by [`MmaRule`].
pub(crate) const MMA_RULES: [Rule; 12] = [
    Rule::fixed(
        "mma.no_such_row",
        Source::PtxTable(39),
        ERROR,
        "Table 39 has a row for the kind, .cta_group and sparsity.",
    ),
    Rule::fixed(
        "mma.ws_no_such_row",
        Source::Decision(16),
        ERROR,
        ".ws is .cta_group::1 only and not for the block-scaled kinds.",
    ),
    Rule::fixed(
        "mma.m",
        Source::PtxTable(39),
        ERROR,
        "M is one of the row's M values.",
    ),
    Rule::fixed(
        "mma.n",
        Source::Decision(14),
        ERROR,
        "N is in the row's N set.",
    ),
    Rule::fixed(
        "mma.n_for_mn_major_8bit",
        Source::Decision(14),
        ERROR,
        "With an 8-bit MN-major B, N steps by 16 with .cta_group::1 and by 32 with .cta_group::2.",
    ),
    Rule::fixed(
        "mma.kind_not_on_target",
        Source::Decision(17),
        ERROR,
        ".kind::i8 is available on sm_100a and sm_110a only.",
    ),
    Rule::fixed(
        "mma.sparse_not_on_target",
        Source::Decision(17),
        ERROR,
        "Sparse .kind::mxf4 and .kind::mxf4nvf4 are available on the 'a' targets only.",
    ),
    Rule::fixed(
        "mma.k96_not_on_target",
        Source::PtxSection("9.7.16.2.1.1"),
        ERROR,
        "K = 96 is available on sm_103a and sm_107a only.",
    ),
    Rule::fixed(
        "mma.k96_shape",
        Source::Decision(15),
        ERROR,
        "K = 96 is for dense .cta_group::2 MMAs with M = 256 only.",
    ),
    Rule::fixed(
        "mma.max_shift_without_ws",
        Source::Decision(11),
        ERROR,
        "A maximum shift other than 0 is for .ws MMAs only.",
    ),
    Rule::fixed(
        "mma.swizzle_for_major",
        Source::Decision(18),
        ERROR,
        "An operand's swizzling mode is one its major-ness and type allow.",
    ),
    Rule::fixed(
        "mma.scale_format",
        Source::PtxSection("9.7.16.4.2"),
        ERROR,
        "On sm_107a / sm_107f bits 23-24 hold 0 (UE4M3), 1 (UE8M0) or 2 (UE5M3, .kind::mxf4nvf4 only); code 3 is reserved.",
    ),
];

/// The field each rule of [`MMA_RULES`] concerns (`a_swizzle` stands for the
/// operand's), indexed by [`MmaRule`].
const MMA_FIELDS: [&str; 12] = [
    "cta_group",
    "ws",
    "m",
    "n",
    "n",
    "target",
    "target",
    "target",
    "k",
    "max_shift",
    "a_swizzle",
    "scale_format",
];

impl MmaError {
    /// [`MmaError::ScaleFormat`] for a word whose bits 23-24 do not decode on a target where
    /// they are the two-bit scale format (rules.md D9; [`two_bit_field_error`]), `None`
    /// otherwise.
    #[must_use]
    pub const fn scale_format(raw: u32, kind: Kind, target: Target) -> Option<MmaError> {
        match two_bit_field_error(raw, kind, target) {
            Some(_) => Some(MmaError::ScaleFormat {
                code: ((raw >> 23) & 3) as u8,
                kind,
                target,
            }),
            None => None,
        }
    }

    /// The rule this error breaks, or `None` for [`MmaError::Idesc`], whose rule is the
    /// instruction descriptor's.
    #[must_use]
    pub const fn rule(&self) -> Option<MmaRule> {
        Some(match self {
            MmaError::Idesc(_) => return None,
            MmaError::NoSuchRow { ws: true, .. } => MmaRule::WsNoSuchRow,
            MmaError::NoSuchRow { .. } => MmaRule::NoSuchRow,
            MmaError::M { .. } => MmaRule::M,
            MmaError::N { .. } => MmaRule::N,
            MmaError::NForMnMajor8Bit { .. } => MmaRule::NForMnMajor8Bit,
            MmaError::KindNotOnTarget { .. } => MmaRule::KindNotOnTarget,
            MmaError::SparseNotOnTarget { .. } => MmaRule::SparseNotOnTarget,
            MmaError::K96NotOnTarget { .. } => MmaRule::K96NotOnTarget,
            MmaError::K96Shape { .. } => MmaRule::K96Shape,
            MmaError::MaxShiftWithoutWs { .. } => MmaRule::MaxShiftWithoutWs,
            MmaError::SwizzleForMajor { .. } => MmaRule::SwizzleForMajor,
            MmaError::ScaleFormat { .. } => MmaRule::ScaleFormat,
        })
    }
}

impl Diagnostic for MmaError {
    fn field(&self) -> &'static str {
        match (self, self.rule()) {
            (MmaError::SwizzleForMajor { a: false, .. }, _) => "b_swizzle",
            (_, Some(rule)) => MMA_FIELDS[rule as usize],
            (MmaError::Idesc(e), None) => e.field(),
            (_, None) => "",
        }
    }

    fn value(&self) -> u64 {
        match *self {
            MmaError::Idesc(e) => e.value(),
            MmaError::NoSuchRow { ws, cta_group, .. } => {
                if ws {
                    1
                } else {
                    cta_group.count() as u64
                }
            }
            MmaError::M { m, .. } => m as u64,
            MmaError::K96Shape { .. } => 96,
            MmaError::N { n, .. } | MmaError::NForMnMajor8Bit { n, .. } => n as u64,
            MmaError::KindNotOnTarget { .. }
            | MmaError::SparseNotOnTarget { .. }
            | MmaError::K96NotOnTarget { .. } => 0,
            MmaError::MaxShiftWithoutWs { max_shift } => max_shift.rows() as u64,
            MmaError::SwizzleForMajor { swizzle, .. } => swizzle.code() as u64,
            MmaError::ScaleFormat { code, .. } => code as u64,
        }
    }

    fn value_name(&self) -> Option<&'static str> {
        match self {
            MmaError::Idesc(e) => e.value_name(),
            MmaError::KindNotOnTarget { target, .. }
            | MmaError::SparseNotOnTarget { target, .. }
            | MmaError::K96NotOnTarget { target } => Some(target.name()),
            _ => None,
        }
    }

    fn source(&self) -> Source {
        match (self, self.rule()) {
            (_, Some(rule)) => rule.row().fixed_source(Source::PtxTable(39)),
            (MmaError::Idesc(e), None) => e.source(),
            (_, None) => Source::PtxTable(39),
        }
    }

    fn severity(&self) -> Severity {
        match (self, self.rule()) {
            (_, Some(rule)) => rule.row().severity,
            (MmaError::Idesc(e), None) => e.severity(),
            (_, None) => ERROR,
        }
    }

    fn rule_id(&self) -> Option<&'static str> {
        match (self, self.rule()) {
            (_, Some(rule)) => Some(rule.id()),
            (MmaError::Idesc(e), None) => e.rule_id(),
            (_, None) => None,
        }
    }
}

fn dense(sparse: bool) -> &'static str {
    if sparse {
        "sparse"
    } else {
        "dense"
    }
}

fn ws_text(ws: bool) -> &'static str {
    if ws {
        ".ws "
    } else {
        ""
    }
}

impl fmt::Display for MmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MmaError::Idesc(e) => e.fmt(f),
            MmaError::NoSuchRow {
                kind,
                ws,
                cta_group,
                sparse,
            } => write!(
                f,
                "Table 39 has no {} shape for .kind::{kind} {}{cta_group}",
                dense(sparse),
                ws_text(ws)
            ),
            MmaError::M { m, rule } => {
                write!(
                    f,
                    "M = {m} is not valid for .kind::{} {}{} {} (valid: ",
                    rule.kind,
                    ws_text(rule.ws),
                    rule.cta_group,
                    dense(rule.sparse)
                )?;
                for (i, m) in rule.m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{m}")?;
                }
                f.write_str(")")
            }
            MmaError::N { n, rule } => write!(
                f,
                "N = {n} is not valid for .kind::{} {}{} {} (valid: {})",
                rule.kind,
                ws_text(rule.ws),
                rule.cta_group,
                dense(rule.sparse),
                rule.n
            ),
            MmaError::NForMnMajor8Bit { n, step } => write!(
                f,
                "N = {n} with an 8-bit N-major (transposed) B must be a multiple of {step}"
            ),
            MmaError::KindNotOnTarget { kind, target } => {
                write!(
                    f,
                    ".kind::{kind} is not available on {target} (only sm_100a and sm_110a)"
                )
            }
            MmaError::SparseNotOnTarget { kind, target } => write!(
                f,
                "sparse .kind::{kind} is not available on {target} (only the 'a' targets)"
            ),
            MmaError::K96NotOnTarget { target } => {
                write!(
                    f,
                    "K = 96 is supported only on sm_103a and sm_107a, not {target}"
                )
            }
            MmaError::K96Shape { cta_group, m } => write!(
                f,
                "K = 96 needs a dense {} M = 256 MMA, not {cta_group} M = {m}",
                CtaGroup::Two
            ),
            MmaError::MaxShiftWithoutWs { max_shift } => write!(
                f,
                "maximum shift of {} rows is only for .ws MMAs",
                max_shift.rows()
            ),
            MmaError::SwizzleForMajor {
                a,
                ty,
                major,
                swizzle,
            } => write!(
                f,
                "{} is {}-major .{ty}, which cannot use {} swizzling (allowed: {})",
                if a { "A" } else { "B" },
                match major {
                    Major::K => "K",
                    Major::Mn =>
                        if a {
                            "M"
                        } else {
                            "N"
                        },
                },
                swizzle.name(),
                if matches!(major, Major::Mn) && matches!(ty, ElementType::Tf32) {
                    "128B_base32B only"
                } else {
                    "every mode but 128B_base32B"
                }
            ),
            MmaError::ScaleFormat {
                code: 3, target, ..
            } => write!(
                f,
                "bits 23-24 = 3: scale format code 3 is reserved on {target} (the codes are 0 \
                 UE4M3, 1 UE8M0, 2 UE5M3; PTX ISA 9.4, rules.md D9)"
            ),
            MmaError::ScaleFormat { code, kind, target } => write!(
                f,
                "bits 23-24 = {code}: {} scale factors are not allowed with .kind::{kind} on \
                 {target} (UE4M3 and UE5M3 with .kind::mxf4nvf4 only; rules.md R12, D7, D9)",
                if code == 2 { "UE5M3" } else { "UE4M3" }
            ),
        }
    }
}

impl core::error::Error for MmaError {}

/// Every problem with an MMA configuration: the instruction descriptor's own rules
/// (rules.md R8-R13), Table 39 (M, N, K for the kind, `.ws`, `.cta_group` and sparsity;
/// R14-R16) and the target rules (R17).
#[must_use]
pub const fn validate_mma(c: &MmaConfig) -> Diagnostics<MmaError, MAX_PROBLEMS> {
    let mut d = Diagnostics::new();
    let f = &c.idesc;
    let idesc = f.validate();
    let mut m_reported = false;
    let mut n_reported = false;
    let mut i = 0;
    while i < idesc.len() {
        if let Some(e) = idesc.get(i) {
            match e {
                IdescError::MNotEncodable { .. } | IdescError::MNotInTable39 { .. } => {
                    m_reported = true
                }
                IdescError::NNotMultipleOf8 { .. } | IdescError::NOutOfRange { .. } => {
                    n_reported = true
                }
                _ => {}
            }
            d.push(MmaError::Idesc(e));
        }
        i += 1;
    }
    if matches!(f.kind, Kind::I8) && !c.target.supports_kind_i8() {
        d.push(MmaError::KindNotOnTarget {
            kind: f.kind,
            target: c.target,
        });
    }
    if matches!(f.kind, Kind::Mxf4 | Kind::Mxf4nvf4) && f.sparse && !c.target.supports_sparse_mxf4()
    {
        d.push(MmaError::SparseNotOnTarget {
            kind: f.kind,
            target: c.target,
        });
    }
    if f.k96 {
        if !c.target.supports_k96() {
            d.push(MmaError::K96NotOnTarget { target: c.target });
        }
        if matches!(c.cta_group, CtaGroup::One) || f.m != 256 {
            d.push(MmaError::K96Shape {
                cta_group: c.cta_group,
                m: f.m,
            });
        }
    }
    if !c.ws && f.max_shift.code() != 0 {
        d.push(MmaError::MaxShiftWithoutWs {
            max_shift: f.max_shift,
        });
    }
    if let Some(sw) = c.a_swizzle {
        let major = if f.transpose_a { Major::Mn } else { Major::K };
        if !swizzle_allowed(f.a_type, major, sw) {
            d.push(MmaError::SwizzleForMajor {
                a: true,
                ty: f.a_type,
                major,
                swizzle: sw,
            });
        }
    }
    if let Some(sw) = c.b_swizzle {
        let major = if f.transpose_b { Major::Mn } else { Major::K };
        if !swizzle_allowed(f.b_type, major, sw) {
            d.push(MmaError::SwizzleForMajor {
                a: false,
                ty: f.b_type,
                major,
                swizzle: sw,
            });
        }
    }
    let k96_row = f.k96 && matches!(c.cta_group, CtaGroup::Two) && f.m == 256 && !f.sparse;
    match find_rule(f.kind, c.ws, c.cta_group, f.sparse, k96_row) {
        None => d.push(MmaError::NoSuchRow {
            kind: f.kind,
            ws: c.ws,
            cta_group: c.cta_group,
            sparse: f.sparse,
        }),
        Some(rule) => {
            if !m_reported && !m_in(rule.m, f.m) {
                d.push(MmaError::M { m: f.m, rule });
            }
            if n_reported {
                // Already reported by the instruction descriptor's own range check.
            } else if !rule.n.contains(f.n) {
                d.push(MmaError::N { n: f.n, rule });
            } else if f.transpose_b && f.b_type.bits() == 8 {
                let step = match c.cta_group {
                    CtaGroup::One => 16,
                    CtaGroup::Two => 32,
                };
                if f.n % step != 0 {
                    d.push(MmaError::NForMnMajor8Bit { n: f.n, step });
                }
            }
        }
    }
    d
}

/// One valid shape of Table 39.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Shape {
    /// The kind.
    pub kind: Kind,
    /// `.cta_group`.
    pub cta_group: CtaGroup,
    /// `tcgen05.mma.ws`.
    pub ws: bool,
    /// Sparse A.
    pub sparse: bool,
    /// M.
    pub m: u16,
    /// N.
    pub n: u16,
    /// K.
    pub k: u16,
}

/// Which shapes [`shapes`] lists: `None` in a filter means any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ShapeFilter {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only this `.cta_group`.
    pub cta_group: Option<CtaGroup>,
    /// Only `.ws` (true) or only non-`.ws` (false).
    pub ws: Option<bool>,
    /// Only sparse (true) or only dense (false).
    pub sparse: Option<bool>,
}

impl ShapeFilter {
    /// True when the filter lets `r` through.
    #[must_use]
    pub const fn accepts(&self, r: &ShapeRule) -> bool {
        (match self.kind {
            Some(k) => k as u8 == r.kind as u8,
            None => true,
        }) && (match self.cta_group {
            Some(g) => g as u8 == r.cta_group as u8,
            None => true,
        }) && (match self.ws {
            Some(w) => w == r.ws,
            None => true,
        }) && (match self.sparse {
            Some(s) => s == r.sparse,
            None => true,
        })
    }
}

/// Every valid `(kind, cta_group, ws, sparse, M, N, K)` on `target` that `filter` accepts, in
/// Table 39 order, each once.
#[must_use]
pub fn shapes(target: Target, filter: ShapeFilter) -> Shapes {
    Shapes {
        target,
        filter,
        rule: 0,
        m: 0,
        n: None,
    }
}

/// Iterator over valid shapes; see [`shapes`].
#[derive(Clone, Debug)]
pub struct Shapes {
    target: Target,
    filter: ShapeFilter,
    rule: usize,
    m: usize,
    n: Option<u16>,
}

impl Iterator for Shapes {
    type Item = Shape;

    fn next(&mut self) -> Option<Shape> {
        while let Some(r) = TABLE_39.get(self.rule) {
            if !self.filter.accepts(r) || !rule_on_target(r, self.target) || self.m >= r.m.len() {
                self.rule += 1;
                self.m = 0;
                self.n = None;
                continue;
            }
            match r.n.next(self.n) {
                Some(n) => {
                    self.n = Some(n);
                    return Some(Shape {
                        kind: r.kind,
                        cta_group: r.cta_group,
                        ws: r.ws,
                        sparse: r.sparse,
                        m: r.m[self.m],
                        n,
                        k: r.k,
                    });
                }
                None => {
                    self.m += 1;
                    self.n = None;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mma::ElementType::*;
    use crate::mma::ScaleType;
    use std::{collections::BTreeSet, string::ToString, vec::Vec};

    #[test]
    fn every_mma_rule_has_one_row_that_says_what_the_rule_said() {
        use crate::diagnostic::check_rule_table;
        let rows: Vec<Rule> = MMA_RULES.to_vec();
        let e = Severity::Error;
        let row = &TABLE_39[0];
        let no_row = |ws| MmaError::NoSuchRow {
            kind: Kind::Mxf4,
            ws,
            cta_group: CtaGroup::Two,
            sparse: false,
        };
        let swizzle = |a| MmaError::SwizzleForMajor {
            a,
            ty: F16,
            major: Major::K,
            swizzle: Swizzle::B128Base32B,
        };
        check_rule_table(
            "mma",
            &rows,
            &[
                (no_row(false), "cta_group", Source::PtxTable(39), e),
                (no_row(true), "ws", Source::Decision(16), e),
                (
                    MmaError::M { m: 96, rule: row },
                    "m",
                    Source::PtxTable(39),
                    e,
                ),
                (
                    MmaError::N { n: 7, rule: row },
                    "n",
                    Source::Decision(14),
                    e,
                ),
                (
                    MmaError::NForMnMajor8Bit { n: 24, step: 16 },
                    "n",
                    Source::Decision(14),
                    e,
                ),
                (
                    MmaError::KindNotOnTarget {
                        kind: Kind::I8,
                        target: Target::Sm103a,
                    },
                    "target",
                    Source::Decision(17),
                    e,
                ),
                (
                    MmaError::SparseNotOnTarget {
                        kind: Kind::Mxf4,
                        target: Target::Sm100f,
                    },
                    "target",
                    Source::Decision(17),
                    e,
                ),
                (
                    MmaError::K96NotOnTarget {
                        target: Target::Sm100a,
                    },
                    "target",
                    Source::PtxSection("9.7.16.2.1.1"),
                    e,
                ),
                (
                    MmaError::K96Shape {
                        cta_group: CtaGroup::One,
                        m: 128,
                    },
                    "k",
                    Source::Decision(15),
                    e,
                ),
                (
                    MmaError::MaxShiftWithoutWs {
                        max_shift: MaxShift::Rows8,
                    },
                    "max_shift",
                    Source::Decision(11),
                    e,
                ),
                (swizzle(true), "a_swizzle", Source::Decision(18), e),
                (swizzle(false), "b_swizzle", Source::Decision(18), e),
                (
                    MmaError::ScaleFormat {
                        code: 3,
                        kind: Kind::Mxf4nvf4,
                        target: Target::Sm107a,
                    },
                    "scale_format",
                    Source::PtxSection("9.7.16.4.2"),
                    e,
                ),
            ],
        );
        // The instruction descriptor's own errors keep their own field, source and severity.
        let idesc = IdescError::MixedF16Bf16;
        let wrapped = MmaError::Idesc(idesc);
        assert_eq!(
            (
                wrapped.field(),
                wrapped.source(),
                wrapped.severity(),
                wrapped.rule_id()
            ),
            (
                idesc.field(),
                idesc.source(),
                idesc.severity(),
                idesc.rule_id()
            )
        );
        assert_eq!(wrapped.rule(), None);
    }

    fn cfg(f: IdescFields, cg: CtaGroup, ws: bool, target: Target) -> MmaConfig {
        MmaConfig {
            idesc: f,
            cta_group: cg,
            ws,
            target,
            a_swizzle: None,
            b_swizzle: None,
        }
    }

    #[test]
    fn swizzle_must_suit_major_ness() {
        let tf32 = IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 128, 64);
        let mn = tf32.with_transpose(true, true);
        let ok = MmaConfig::new(mn)
            .with_swizzles(Some(Swizzle::B128Base32B), Some(Swizzle::B128Base32B));
        assert!(validate_mma(&ok).is_empty());
        let bad = MmaConfig::new(mn).with_swizzles(Some(Swizzle::B128), Some(Swizzle::None));
        assert_eq!(fields_of(&bad), ["a_swizzle", "b_swizzle"]);
        let k = MmaConfig::new(tf32).with_swizzles(Some(Swizzle::B128Base32B), Some(Swizzle::B32));
        assert_eq!(fields_of(&k), ["a_swizzle"]);
        let bf = IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 64).with_transpose(false, true);
        let e = validate_mma(&MmaConfig::new(bf).with_swizzles(None, Some(Swizzle::B128Base32B)));
        assert_eq!(e.first_error().map(|e| e.to_string()).as_deref(),
            Some("B is N-major .bf16, which cannot use 128B_base32B swizzling (allowed: every mode but 128B_base32B)"));
        assert_eq!(
            e.first_error().map(|e| e.source()),
            Some(Source::Decision(18))
        );
    }

    fn fields_of(c: &MmaConfig) -> Vec<&'static str> {
        validate_mma(c).errors().map(|e| e.field()).collect()
    }

    #[test]
    fn i8_n_rule_follows_table_39_not_cutlass() {
        let ns: Vec<u16> = (0..=264)
            .filter(|&n| NSet::I8CtaGroup1.contains(n))
            .collect();
        let mut want = std::vec![8, 16, 24, 32];
        want.extend((48..=256).step_by(16));
        assert_eq!(ns, want);
        for n in [24, 8, 48, 256] {
            let c = MmaConfig::new(IdescFields::new(Kind::I8, S32, S8, U8, 64, n));
            assert!(validate_mma(&c).is_empty(), "N = {n}");
        }
        for n in [40, 56, 264] {
            let c = MmaConfig::new(IdescFields::new(Kind::I8, S32, S8, U8, 64, n));
            assert_eq!(fields_of(&c), ["n"], "N = {n}");
        }
    }

    #[test]
    fn f16_cta_group_1_m128_allows_every_multiple_of_8() {
        for n in (8..=256).step_by(8) {
            let c = MmaConfig::new(IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, n));
            assert!(validate_mma(&c).is_empty(), "N = {n}");
        }
        let c = cfg(
            IdescFields::new(Kind::F16, F32, F16, F16, 256, 24),
            CtaGroup::Two,
            false,
            Target::Sm100a,
        );
        assert_eq!(fields_of(&c), ["n"]);
    }

    #[test]
    fn ws_rules() {
        let f = IdescFields::new(Kind::F16, F32, F16, F16, 32, 128);
        assert!(validate_mma(&cfg(f, CtaGroup::One, true, Target::Sm100a)).is_empty());
        assert_eq!(
            fields_of(&cfg(f, CtaGroup::One, false, Target::Sm100a)),
            ["m"]
        );
        assert_eq!(
            fields_of(&cfg(f, CtaGroup::Two, true, Target::Sm100a)),
            ["ws"]
        );
        let sparse256 = IdescFields::new(Kind::F16, F32, F16, F16, 64, 256).with_sparse(true, 0);
        assert_eq!(
            fields_of(&cfg(sparse256, CtaGroup::One, true, Target::Sm100a)),
            ["n"]
        );
        let mx = IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E4m3, 128, 128);
        assert_eq!(
            fields_of(&cfg(mx, CtaGroup::One, true, Target::Sm100a)),
            ["ws"]
        );
        let shifted =
            IdescFields::new(Kind::F16, F32, F16, F16, 64, 128).with_max_shift(MaxShift::Rows16);
        assert!(validate_mma(&cfg(shifted, CtaGroup::One, true, Target::Sm100a)).is_empty());
        assert_eq!(
            fields_of(&cfg(shifted, CtaGroup::One, false, Target::Sm100a)),
            ["max_shift"]
        );
    }

    #[test]
    fn target_rules() {
        let i8 = IdescFields::new(Kind::I8, S32, S8, S8, 128, 64);
        for t in Target::ALL {
            let errs = fields_of(&MmaConfig {
                target: t,
                ..MmaConfig::new(i8)
            });
            assert_eq!(errs.is_empty(), t.supports_kind_i8(), "{t}: {errs:?}");
        }
        let sp = IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 64).with_sparse(true, 0);
        assert!(validate_mma(&MmaConfig {
            target: Target::Sm100a,
            ..MmaConfig::new(sp)
        })
        .is_empty());
        assert_eq!(
            fields_of(&MmaConfig {
                target: Target::Sm100f,
                ..MmaConfig::new(sp)
            }),
            ["target"]
        );
        let k96 = IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 256, 128).with_k96(true);
        assert!(validate_mma(&cfg(k96, CtaGroup::Two, false, Target::Sm103a)).is_empty());
        assert_eq!(
            fields_of(&cfg(k96, CtaGroup::Two, false, Target::Sm100a)),
            ["target"]
        );
        let k96_128 = IdescFields { m: 128, ..k96 };
        assert!(fields_of(&cfg(k96_128, CtaGroup::Two, false, Target::Sm103a)).contains(&"k"));
    }

    #[test]
    fn mn_major_8bit_b_needs_coarser_n() {
        let f =
            IdescFields::new(Kind::F8f6f4, F32, E4m3, E4m3, 128, 24).with_transpose(false, true);
        assert_eq!(fields_of(&MmaConfig::new(f)), ["n"]);
        let f = IdescFields { n: 32, ..f };
        assert!(validate_mma(&MmaConfig::new(f)).is_empty());
        let f2 = IdescFields::new(Kind::I8, S32, S8, S8, 256, 64).with_transpose(false, true);
        assert!(validate_mma(&cfg(f2, CtaGroup::Two, false, Target::Sm100a)).is_empty());
        let bf = IdescFields::new(Kind::F16, F32, Bf16, Bf16, 128, 24).with_transpose(false, true);
        assert!(
            validate_mma(&MmaConfig::new(bf)).is_empty(),
            "16-bit B keeps steps of 8"
        );
    }

    #[test]
    fn block_scaled_rows() {
        let mx = IdescFields::new(Kind::Mxf8f6f4, F32, E4m3, E2m1, 128, 8);
        assert!(validate_mma(&MmaConfig::new(mx)).is_empty());
        let sp128 = IdescFields { m: 128, ..mx }.with_sparse(true, 0);
        assert_eq!(
            fields_of(&cfg(
                IdescFields { n: 16, ..sp128 },
                CtaGroup::Two,
                false,
                Target::Sm100a
            )),
            ["m"]
        );
        let nv = IdescFields::new(Kind::Mxf4nvf4, F32, E2m1, E2m1, 128, 8).with_scale(
            ScaleType::Ue4m3,
            0,
            0,
        );
        assert!(validate_mma(&MmaConfig::new(nv)).is_empty());
    }

    #[test]
    fn enumeration_is_complete_and_consistent() {
        for t in Target::ALL {
            let all: Vec<Shape> = shapes(t, ShapeFilter::default()).collect();
            let set: BTreeSet<Shape> = all.iter().copied().collect();
            assert_eq!(set.len(), all.len(), "no duplicates on {t}");
            for s in &all {
                // Every listed shape validates with some legal types.
                let (d, a) = match s.kind {
                    Kind::F16 => (F32, F16),
                    Kind::Tf32 => (F32, Tf32),
                    Kind::F8f6f4 | Kind::Mxf8f6f4 => (F32, E4m3),
                    Kind::I8 => (S32, S8),
                    Kind::Mxf4 | Kind::Mxf4nvf4 => (F32, E2m1),
                };
                let f = IdescFields::new(s.kind, d, a, a, s.m, s.n)
                    .with_sparse(s.sparse, 0)
                    .with_k96(s.k == 96);
                let c = cfg(f, s.cta_group, s.ws, t);
                assert!(
                    validate_mma(&c).is_empty(),
                    "{s:?} on {t}: {:?}",
                    validate_mma(&c)
                );
                assert_eq!(f.k(), s.k);
            }
            // And nothing else validates: sweep M and N for every row combination.
            for kind in Kind::ALL {
                for cg in [CtaGroup::One, CtaGroup::Two] {
                    for ws in [false, true] {
                        for sparse in [false, true] {
                            for m in [16u16, 32, 48, 64, 96, 128, 192, 256] {
                                for n in (8..=256).step_by(8) {
                                    let listed = set.iter().any(|s| {
                                        s.kind == kind
                                            && s.cta_group == cg
                                            && s.ws == ws
                                            && s.sparse == sparse
                                            && s.m == m
                                            && s.n == n
                                            && s.k != 96
                                    });
                                    let (d, a) = match kind {
                                        Kind::F16 => (F32, F16),
                                        Kind::Tf32 => (F32, Tf32),
                                        Kind::F8f6f4 | Kind::Mxf8f6f4 => (F32, E4m3),
                                        Kind::I8 => (S32, S8),
                                        Kind::Mxf4 | Kind::Mxf4nvf4 => (F32, E2m1),
                                    };
                                    let f = IdescFields::new(kind, d, a, a, m, n)
                                        .with_sparse(sparse, 0);
                                    let ok = validate_mma(&cfg(f, cg, ws, t)).is_empty();
                                    assert_eq!(
                                        ok,
                                        listed,
                                        "{kind} cg{} ws={ws} sparse={sparse} {m}x{n} on {t}",
                                        cg.count()
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        let f16_cg1: Vec<Shape> = shapes(
            Target::Sm100a,
            ShapeFilter {
                kind: Some(Kind::F16),
                cta_group: Some(CtaGroup::One),
                ws: Some(false),
                sparse: Some(false),
            },
        )
        .collect();
        assert_eq!(f16_cg1.len(), 2 * 32);
        assert!(shapes(
            Target::Sm100f,
            ShapeFilter {
                kind: Some(Kind::I8),
                ..ShapeFilter::default()
            }
        )
        .next()
        .is_none());
        let k96 = shapes(Target::Sm103a, ShapeFilter::default())
            .filter(|s| s.k == 96)
            .count();
        assert_eq!(
            k96,
            2 * 16,
            "mxf4 and mxf4nvf4, M = 256, N = 16..256 step 16"
        );
    }

    #[test]
    fn values_that_are_names_are_given_as_names() {
        let c = MmaConfig {
            target: Target::Sm103a,
            ..MmaConfig::new(IdescFields::new(Kind::I8, S32, S8, Tf32, 128, 64))
        };
        let d = validate_mma(&c);
        let named: Vec<_> = d.iter().map(|e| (e.field(), e.value_name())).collect();
        assert!(named.contains(&("b_type", Some("tf32"))), "{named:?}");
        assert!(named.contains(&("target", Some("sm_103a"))), "{named:?}");
        let k96 = IdescFields::new(Kind::Mxf4, F32, E2m1, E2m1, 128, 64).with_k96(true);
        let e = validate_mma(&cfg(k96, CtaGroup::One, false, Target::Sm103a));
        let k = e.iter().find(|e| e.field() == "k");
        assert_eq!(k.map(|e| e.value()), Some(96));
    }

    #[test]
    fn messages_name_the_valid_values() {
        let c = MmaConfig::new(IdescFields::new(Kind::Tf32, F32, Tf32, Tf32, 256, 64));
        let e = validate_mma(&c).first_error().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("M = 256 is not valid for .kind::tf32 cta_group::1 dense (valid: 64, 128)")
        );
        assert_eq!(
            validate_mma(&c).first_error().map(|e| e.source()),
            Some(Source::PtxTable(39))
        );
    }
}
