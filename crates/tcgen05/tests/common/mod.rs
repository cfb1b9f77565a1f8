//! Shared by the property tests: run a property and count which of its branches ran, so that a
//! property whose asserting branch never runs fails instead of passing vacuously.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::cell::RefCell;

/// Runs `body` on `cases` values of `strategy`. `body` returns the index (below `N`) of the
/// branch it took; panics (failing the test) when the property fails, or when any branch ran in
/// fewer than `min_share` of the cases. Returns the counts.
pub fn counted<S: Strategy, const N: usize>(
    name: &str,
    cases: u32,
    min_share: f64,
    strategy: S,
    body: impl Fn(S::Value) -> Result<usize, TestCaseError>,
) -> [u32; N] {
    let counts = RefCell::new([0u32; N]);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |v| {
        let b = body(v)?;
        counts.borrow_mut()[b] += 1;
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    let counts = counts.into_inner();
    let total: u32 = counts.iter().sum();
    eprintln!("{name}: branch counts {counts:?} of {total} cases");
    for (i, &c) in counts.iter().enumerate() {
        assert!(
            f64::from(c) >= min_share * f64::from(total),
            "{name}: branch {i} ran in {c} of {total} cases (counts {counts:?}), below {min_share}"
        );
    }
    counts
}
