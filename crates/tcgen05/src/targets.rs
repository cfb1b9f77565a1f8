//! Compilation targets that have tcgen05, and the rules that depend on them.
//!
//! tcgen05 exists on the datacenter Blackwell targets only (PTX ISA 9.3 §9.7.16 and PTX ISA 9.4
//! §9.7.18 target notes; PTX ISA 9.4 §13 Tables 71 and 72; rules.md R17). `sm_101a` was renamed
//! `sm_110a` in PTX ISA 9.0 and is accepted as an alias. PTX ISA 9.4 added `sm_107a` /
//! `sm_107f` (Table 71); a family target (`f`) has every feature of the lower members of its
//! family (`sm_100f` < `sm_103f` < `sm_107f`), an `a` target every feature of its `f` target
//! (PTX ISA 9.4 §13 Table 72 lists each feature at the lowest target that has it; ptxas 13.5
//! `--help` of `--gpu-name`: PTX for `sm_XYf` compiles to `sm_XZ`, `sm_XZf`, `sm_XZa` with
//! Z >= Y in the same family).
//! Consumer Blackwell (`sm_120*`, `sm_121*`) has no tcgen05 at all; asking for it gives
//! [`TargetError::ConsumerBlackwell`].

use core::fmt;

use crate::bytes::{bytes_eq as eq, starts_with};
use crate::diagnostic::{Diagnostic, Rule, RuleSource, Severity, Source};

/// A PTX target that supports tcgen05.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Target {
    /// `sm_100a` (B200, GB200), architecture-specific.
    Sm100a,
    /// `sm_100f`, the sm_100 family (portable to later members of the family).
    Sm100f,
    /// `sm_103a` (B300, GB300), architecture-specific.
    Sm103a,
    /// `sm_103f`, the sm_103 family.
    Sm103f,
    /// `sm_107a`, architecture-specific (PTX ISA 9.4, Table 71).
    Sm107a,
    /// `sm_107f`, the sm_107 family (PTX ISA 9.4).
    Sm107f,
    /// `sm_110a` (formerly `sm_101a`, Jetson Thor), architecture-specific.
    Sm110a,
    /// `sm_110f`, the sm_110 family.
    Sm110f,
}

impl Target {
    /// Every target, in the order above.
    pub const ALL: [Target; 8] = [
        Target::Sm100a,
        Target::Sm100f,
        Target::Sm103a,
        Target::Sm103f,
        Target::Sm107a,
        Target::Sm107f,
        Target::Sm110a,
        Target::Sm110f,
    ];

    /// The default target of the command-line tool and of [`Default`].
    pub const DEFAULT: Target = Target::Sm100a;

    /// The target's PTX name, for example `"sm_100a"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Target::Sm100a => "sm_100a",
            Target::Sm100f => "sm_100f",
            Target::Sm103a => "sm_103a",
            Target::Sm103f => "sm_103f",
            Target::Sm107a => "sm_107a",
            Target::Sm107f => "sm_107f",
            Target::Sm110a => "sm_110a",
            Target::Sm110f => "sm_110f",
        }
    }

    /// Parses a PTX target name. `sm_101a` / `sm_101f` give `sm_110a` / `sm_110f` (their current
    /// names).
    ///
    /// # Errors
    /// [`TargetError::ConsumerBlackwell`] for `sm_120`, `sm_120a`, `sm_120f`, `sm_121`, `sm_121a`
    /// and `sm_121f`; [`TargetError::NoTcgen05`] for the plain `sm_100`/`sm_103`/`sm_107`/`sm_110`
    /// (tcgen05 needs an `a` or `f` suffix); [`TargetError::Unknown`] otherwise.
    pub const fn from_name(name: &str) -> Result<Target, TargetError> {
        let b = name.as_bytes();
        if eq(b, b"sm_100a") {
            Ok(Target::Sm100a)
        } else if eq(b, b"sm_100f") {
            Ok(Target::Sm100f)
        } else if eq(b, b"sm_103a") {
            Ok(Target::Sm103a)
        } else if eq(b, b"sm_103f") {
            Ok(Target::Sm103f)
        } else if eq(b, b"sm_107a") {
            Ok(Target::Sm107a)
        } else if eq(b, b"sm_107f") {
            Ok(Target::Sm107f)
        } else if eq(b, b"sm_110a") || eq(b, b"sm_101a") {
            Ok(Target::Sm110a)
        } else if eq(b, b"sm_110f") || eq(b, b"sm_101f") {
            Ok(Target::Sm110f)
        } else if starts_with(b, b"sm_120") || starts_with(b, b"sm_121") {
            Err(TargetError::ConsumerBlackwell)
        } else if eq(b, b"sm_100")
            || eq(b, b"sm_103")
            || eq(b, b"sm_107")
            || eq(b, b"sm_110")
            || eq(b, b"sm_101")
        {
            Err(TargetError::NoTcgen05)
        } else {
            Err(TargetError::Unknown)
        }
    }

    /// The warning that `name` is an earlier name of a target: `sm_101a` / `sm_101f`, which
    /// [`Target::from_name`] reads as `sm_110a` / `sm_110f` (rules.md R17); `None` for every
    /// other name.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::targets::{Target, TargetAlias};
    ///
    /// assert_eq!(
    ///     Target::alias_of("sm_101a"),
    ///     Some(TargetAlias { name: "sm_101a", target: Target::Sm110a })
    /// );
    /// assert_eq!(Target::alias_of("sm_110a"), None);
    /// ```
    #[must_use]
    pub const fn alias_of(name: &str) -> Option<TargetAlias> {
        let b = name.as_bytes();
        if eq(b, b"sm_101a") {
            Some(TargetAlias {
                name: "sm_101a",
                target: Target::Sm110a,
            })
        } else if eq(b, b"sm_101f") {
            Some(TargetAlias {
                name: "sm_101f",
                target: Target::Sm110f,
            })
        } else {
            None
        }
    }

    /// True for the architecture-specific (`a`) targets.
    #[must_use]
    pub const fn is_arch_specific(self) -> bool {
        matches!(
            self,
            Target::Sm100a | Target::Sm103a | Target::Sm107a | Target::Sm110a
        )
    }

    /// The family this target belongs to, by its PTX name's number: 100, 103, 107 or 110.
    /// A family (`f`) target has the family features of every lower member of its family line
    /// (`sm_100f` < `sm_103f` < `sm_107f`; `sm_110f` is a line of its own), and an `a` target
    /// has every feature of its `f` target (PTX ISA 9.4 §13 Table 72 lists each feature at the
    /// lowest target; ptxas 13.5 `--help` of `--gpu-name` states the family rule).
    #[must_use]
    pub const fn number(self) -> u16 {
        match self {
            Target::Sm100a | Target::Sm100f => 100,
            Target::Sm103a | Target::Sm103f => 103,
            Target::Sm107a | Target::Sm107f => 107,
            Target::Sm110a | Target::Sm110f => 110,
        }
    }

    /// True when this target has the family-specific features introduced at `sm_<number>f`:
    /// the same family line (10.x or 11.x) and a number at least `number`.
    #[must_use]
    pub const fn in_family_of(self, number: u16) -> bool {
        let n = self.number();
        n / 10 == number / 10 && n >= number
    }

    /// `.kind::i8` exists only on `sm_100a` and `sm_110a` (rules.md R17; PTX ISA 9.3
    /// §9.7.16.10.9 target notes; PTX ISA 9.4 Table 72 lists `.kind::i8` at 8.6 for `sm_100a`
    /// and 9.0 for `sm_110a` only, so neither `sm_103a` nor `sm_107a` has it).
    #[must_use]
    pub const fn supports_kind_i8(self) -> bool {
        matches!(self, Target::Sm100a | Target::Sm110a)
    }

    /// Sparse `.kind::mxf4` / `.kind::mxf4nvf4` exist only on the `a` targets (rules.md R17;
    /// PTX ISA 9.4 Table 72: 8.6 `sm_100a`, 8.8 `sm_103a`, 9.0 `sm_110a`, 9.4 `sm_107a`).
    #[must_use]
    pub const fn supports_sparse_mxf4(self) -> bool {
        self.is_arch_specific()
    }

    /// K = 96 (Table 44 bit 31) exists only on `sm_103a` and `sm_107a` (PTX ISA 9.3
    /// §9.7.16.2.1.1; PTX ISA 9.4 Table 72: 8.8 `sm_103a`, 9.4 `sm_107a`; rules.md R15).
    #[must_use]
    pub const fn supports_k96(self) -> bool {
        matches!(self, Target::Sm103a | Target::Sm107a)
    }

    /// The absolute leading-dimension byte address mode (shared memory descriptor bit 52) exists
    /// only on `sm_103a` (PTX ISA 9.3 §9.7.16.4.1.1; rules.md R5). `sm_107a` is left out: the
    /// PTX ISA 9.4 target note of §9.7.18.4 was not read (docs/ptx-9.5.md, gaps), and ptxas
    /// cannot see descriptor values, so nothing certifies the bit there.
    #[must_use]
    pub const fn supports_absolute_lbo(self) -> bool {
        matches!(self, Target::Sm103a)
    }

    /// `tcgen05.shift` exists on the `a` targets only (PTX ISA 9.3 §9.7.16.9.3; PTX ISA 9.4
    /// Table 72: 8.6 `sm_100a`, 8.8 `sm_103a`, 9.0 `sm_110a`, 9.4 `sm_107a`).
    #[must_use]
    pub const fn supports_shift(self) -> bool {
        self.is_arch_specific()
    }

    /// `tcgen05.ld.red` exists on `sm_103f` and higher in its family (`sm_103a`, `sm_107a`,
    /// `sm_107f`) and on `sm_110a` / `sm_110f` (PTX ISA 9.3 §9.7.16.8.3; PTX ISA 9.4 Table 72:
    /// 8.8 `sm_103f`, 9.0 `sm_110f`).
    #[must_use]
    pub const fn supports_ld_red(self) -> bool {
        self.in_family_of(103) || self.in_family_of(110)
    }

    /// The `scale-input-d` operand of `tcgen05.mma` exists on `sm_100a` and `sm_100f` or higher
    /// in the same family (`sm_103a/f`, `sm_107a/f`), not on the 110 targets (PTX ISA 9.3
    /// §9.7.16.10.9.1 target notes; PTX ISA 9.4 Table 72: 8.6 `sm_100a`, 8.8 `sm_100f`).
    #[must_use]
    pub const fn supports_scale_input_d(self) -> bool {
        self.in_family_of(100)
    }

    /// The `tcgen05` forms PTX ISA 9.4 added for `sm_107f` (so `sm_107a` too): `.kind::ti16`,
    /// `.decompress::lut::b`, `.collector::b::*` of `tcgen05.mma`, and the `tcgen05.commit`
    /// qualifiers `.sync_restrict::shared::read::mma::a` and `.multicast::cluster::32b` (PTX
    /// ISA 9.4 Table 72; ptxas 13.5 assembles them for `sm_107a` and `sm_107f` only,
    /// docs/ptx-9.5.md).
    #[must_use]
    pub const fn supports_sm107_forms(self) -> bool {
        self.in_family_of(107)
    }

    /// The lowest PTX ISA version (major * 10 + minor) that accepts this target with tcgen05:
    /// 8.6 for `sm_100a`, 8.8 for the 103 and family targets, 9.0 for the 110 targets, 9.4 for
    /// the 107 targets (PTX ISA 9.4 Tables 71 and 72).
    #[must_use]
    pub const fn min_ptx_version(self) -> u8 {
        match self {
            Target::Sm100a => 86,
            Target::Sm100f | Target::Sm103a | Target::Sm103f => 88,
            Target::Sm110a | Target::Sm110f => 90,
            Target::Sm107a | Target::Sm107f => 94,
        }
    }
}

impl Default for Target {
    fn default() -> Self {
        Target::DEFAULT
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A target given by its earlier name (a warning): PTX ISA 9.0 renamed `sm_101a` / `sm_101f`
/// to `sm_110a` / `sm_110f`, and this crate reads the old name as the new one, so the checks,
/// the PTX `.target` and the lowest PTX ISA version are those of the new name (rules.md
/// R17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetAlias {
    /// The name given.
    pub name: &'static str,
    /// The target it is read as.
    pub target: Target,
}

impl fmt::Display for TargetAlias {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.target.min_ptx_version();
        write!(
            f,
            "{} is an alias: it was renamed {} in PTX ISA 9.0 and is checked and written as {} \
             (.target {}, PTX ISA {}.{} or later)",
            self.name,
            self.target,
            self.target,
            self.target,
            v / 10,
            v % 10
        )
    }
}

impl TargetAlias {
    /// The row of the rule a target alias draws attention to.
    #[must_use]
    pub const fn row(&self) -> &'static Rule {
        &TARGET_RULES[ALIAS_ROW]
    }
}

impl Diagnostic for TargetAlias {
    fn field(&self) -> &'static str {
        "target"
    }
    fn value(&self) -> u64 {
        0
    }
    fn value_name(&self) -> Option<&'static str> {
        Some(self.name)
    }
    fn source(&self) -> Source {
        self.row().fixed_source(Source::Decision(17))
    }
    fn severity(&self) -> Severity {
        self.row().severity
    }
    fn rule_id(&self) -> Option<&'static str> {
        Some(self.row().id)
    }
}

/// Why a name is not a tcgen05 target; each variant is the index of its rule's row
/// ([`TargetError::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[repr(u8)]
pub enum TargetError {
    /// `sm_120*` / `sm_121*`: consumer Blackwell (RTX 50, DGX Spark) has no tcgen05 (rules.md
    /// R17).
    ConsumerBlackwell,
    /// `sm_100`, `sm_103`, `sm_107`, `sm_110` without a suffix: tcgen05 needs the `a` or `f` variant.
    NoTcgen05,
    /// Not a target name this crate knows.
    Unknown,
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::ConsumerBlackwell => f.write_str(
                "no tcgen05 on consumer Blackwell: sm_120/sm_121 have no tcgen05 instructions \
                 (use sm_100a, sm_100f, sm_103a, sm_103f, sm_107a, sm_107f, sm_110a or sm_110f)",
            ),
            TargetError::NoTcgen05 => f.write_str(
                "tcgen05 needs an architecture-specific ('a') or family ('f') target, \
                 such as sm_100a or sm_100f",
            ),
            TargetError::Unknown => f.write_str(
                "unknown target (expected sm_100a, sm_100f, sm_103a, sm_103f, sm_107a, sm_107f, \
                 sm_110a, sm_110f or sm_101a)",
            ),
        }
    }
}

impl TargetError {
    /// The row of the rule this error breaks.
    #[must_use]
    pub const fn row(&self) -> &'static Rule {
        &TARGET_RULES[*self as usize]
    }
}

/// The row of [`TargetAlias`] in [`TARGET_RULES`], after those of [`TargetError`].
const ALIAS_ROW: usize = 3;

/// Every rule of target names (rules.md R17): one row per [`TargetError`] variant, in its
/// order, then the alias warning of [`TargetAlias`].
pub(crate) const TARGET_RULES: [Rule; 4] = {
    const R17: RuleSource = RuleSource::Fixed(Source::Decision(17));
    [
        Rule {
            id: "target.consumer_blackwell",
            source: R17,
            severity: Severity::Error,
            statement: "Consumer Blackwell (sm_120, sm_121) has no tcgen05 instructions.",
            message: None,
        },
        Rule {
            id: "target.no_tcgen05",
            source: R17,
            severity: Severity::Error,
            statement: "tcgen05 needs an architecture-specific ('a') or family ('f') target.",
            message: None,
        },
        Rule {
            id: "target.unknown",
            source: R17,
            severity: Severity::Error,
            statement: "A target is sm_100a, sm_100f, sm_103a, sm_103f, sm_107a, sm_107f, sm_110a, sm_110f or an alias of one.",
            message: None,
        },
        Rule {
            id: "target.alias",
            source: R17,
            severity: Severity::Warning,
            statement: "sm_101a and sm_101f are the names sm_110a and sm_110f had before PTX ISA 9.0.",
            message: None,
        },
    ]
};

impl Diagnostic for TargetError {
    fn field(&self) -> &'static str {
        "target"
    }
    fn value(&self) -> u64 {
        0
    }
    fn source(&self) -> Source {
        self.row().fixed_source(Source::Decision(17))
    }
    fn severity(&self) -> Severity {
        self.row().severity
    }
    fn rule_id(&self) -> Option<&'static str> {
        Some(self.row().id)
    }
}

impl core::error::Error for TargetError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{format, vec::Vec};
    #[test]
    fn every_target_rule_has_one_row_that_says_what_the_rule_said() {
        use crate::diagnostic::check_rule_table;
        let r17 = Source::Decision(17);
        let e = Severity::Error;
        check_rule_table(
            "target",
            &TARGET_RULES[..ALIAS_ROW],
            &[
                (TargetError::ConsumerBlackwell, "target", r17, e),
                (TargetError::NoTcgen05, "target", r17, e),
                (TargetError::Unknown, "target", r17, e),
            ],
        );
        let alias = Target::alias_of("sm_101a").expect("an alias");
        check_rule_table(
            "target",
            &TARGET_RULES[ALIAS_ROW..],
            &[(alias, "target", r17, Severity::Warning)],
        );
        crate::diagnostic::check_rule_ids("target", &TARGET_RULES);
    }

    #[test]
    fn names_round_trip() {
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Ok(t));
        }
        assert_eq!(Target::from_name("sm_101a"), Ok(Target::Sm110a));
        assert_eq!(Target::from_name("sm_101f"), Ok(Target::Sm110f));
        // Issue 16 D5: the old names are aliases, and say so.
        for (old, new) in [("sm_101a", Target::Sm110a), ("sm_101f", Target::Sm110f)] {
            let a = Target::alias_of(old).expect("an alias");
            assert_eq!((a.name, a.target), (old, new));
            assert_eq!(a.severity(), crate::diagnostic::Severity::Warning);
            assert!(format!("{a}").contains("PTX ISA 9.0 or later"), "{a}");
        }
        for t in Target::ALL {
            assert_eq!(Target::alias_of(t.name()), None);
        }
    }

    #[test]
    fn consumer_blackwell_is_refused_by_name() {
        for n in ["sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a"] {
            assert_eq!(
                Target::from_name(n),
                Err(TargetError::ConsumerBlackwell),
                "{n}"
            );
        }
        let msg = format!("{}", TargetError::ConsumerBlackwell);
        assert!(msg.contains("no tcgen05 on consumer Blackwell"));
        assert_eq!(Target::from_name("sm_100"), Err(TargetError::NoTcgen05));
        assert_eq!(Target::from_name("sm_90a"), Err(TargetError::Unknown));
        assert_eq!(Target::from_name(""), Err(TargetError::Unknown));
    }

    #[test]
    fn target_dependent_rules() {
        let i8: Vec<_> = Target::ALL
            .iter()
            .filter(|t| t.supports_kind_i8())
            .collect();
        assert_eq!(i8, [&Target::Sm100a, &Target::Sm110a]);
        let k96: Vec<_> = Target::ALL.iter().filter(|t| t.supports_k96()).collect();
        assert_eq!(k96, [&Target::Sm103a, &Target::Sm107a]);
        assert!(!Target::Sm100f.supports_sparse_mxf4());
        assert!(Target::Sm103a.supports_absolute_lbo());
        assert!(!Target::Sm103f.supports_absolute_lbo());
    }

    /// The target lists of PTX ISA 9.4 §13 Table 72 (rows written out here from the text, with
    /// the family rule applied by hand), against the predicates.
    #[test]
    fn the_107_targets_follow_table_72() {
        use Target::*;
        let pick = |f: fn(Target) -> bool| -> Vec<Target> {
            Target::ALL.iter().copied().filter(|t| f(*t)).collect()
        };
        // tcgen05.shift: sm_100a 8.6, sm_103a 8.8, sm_110a 9.0, sm_107a 9.4.
        assert_eq!(
            pick(Target::supports_shift),
            [Sm100a, Sm103a, Sm107a, Sm110a]
        );
        // Sparse .kind::mxf4 / mxf4nvf4: the same four `a` targets.
        assert_eq!(
            pick(Target::supports_sparse_mxf4),
            [Sm100a, Sm103a, Sm107a, Sm110a]
        );
        // tcgen05.ld.red: sm_103f 8.8 (so sm_103a, sm_107a, sm_107f), sm_110f 9.0.
        assert_eq!(
            pick(Target::supports_ld_red),
            [Sm103a, Sm103f, Sm107a, Sm107f, Sm110a, Sm110f]
        );
        // scale-input-d: sm_100a 8.6, sm_100f 8.8 (and higher in the family).
        assert_eq!(
            pick(Target::supports_scale_input_d),
            [Sm100a, Sm100f, Sm103a, Sm103f, Sm107a, Sm107f]
        );
        // .kind::i8: sm_100a 8.6, sm_110a 9.0 only.
        assert_eq!(pick(Target::supports_kind_i8), [Sm100a, Sm110a]);
        // Table 71: sm_107 first appears in PTX ISA 9.4.
        assert_eq!(
            (Sm107a.min_ptx_version(), Sm107f.min_ptx_version()),
            (94, 94)
        );
        assert_eq!(Target::from_name("sm_107"), Err(TargetError::NoTcgen05));
    }
}
