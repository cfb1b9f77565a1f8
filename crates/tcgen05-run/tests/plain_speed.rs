//! The plain run's speed on the kernels of `hw/run/ptx` (best of 5 each), to compare builds of
//! the interpreter with and without the observer hooks:
//! `cargo test --release -p tcgen05-run --test plain_speed -- --ignored --nocapture`.

mod common;

use common::hopper_cases::{cases, ptx};
use tcgen05_run::{launch, Module};

#[test]
#[ignore = "a benchmark: run in release"]
fn plain_run_speed() {
    let mut total = 0.0;
    for c in cases() {
        let module = Module::read(&ptx(c.name)).expect("reads");
        let best = (0..5)
            .map(|_| {
                let mut args = c.args.clone();
                let t = std::time::Instant::now();
                launch(&module, c.name, &c.config(), &mut args).expect("runs");
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        total += best;
        eprintln!("{:<10} {best:.4} s", c.name);
    }
    eprintln!("all        {total:.4} s");
}
