//! The target whose tcgen05 rules a run's emulator applies: the module's `.target` (PTX ISA
//! 11.3.2), read through the core's target table ([`Target::from_name`]), so that a kernel for
//! `sm_103a` / `sm_107a` runs its K = 96 MMAs (PTX ISA 8.8, Table 39) and one for `sm_107a` /
//! `sm_107f` its UE5M3 scale factors (rulings D7, D9 of `docs/rules.md`).
//!
//! A module whose `.target` names no tcgen05 target (`sm_90a`, none at all) keeps `sm_100a`,
//! the target every run modelled before the target was passed through.

use tcgen05::targets::Target;

/// The target for a module's `.target` as written (its first entry; `sm_100a` when it has no
/// tcgen05 target).
pub(crate) fn emulated(target: Option<&str>) -> Target {
    target
        .and_then(|t| t.split(',').next())
        .and_then(|t| Target::from_name(t.trim()).ok())
        .unwrap_or(Target::Sm100a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_core_table() {
        assert_eq!(emulated(Some("sm_103a")), Target::Sm103a);
        assert_eq!(emulated(Some("sm_107f, debug")), Target::Sm107f);
        assert_eq!(emulated(Some("sm_101a")), Target::Sm110a);
        assert_eq!(emulated(Some("sm_90a")), Target::Sm100a);
        assert_eq!(emulated(None), Target::Sm100a);
    }
}
