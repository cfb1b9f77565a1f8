//! Writes or checks the hardware case files (wgmma, TMA, end to end) and the CUDA wrappers they
//! need.
//!
//! ```text
//! cargo run -p tcgen05-hw-cases -- write   # hw/cases/{wgmma,tma,e2e}.txt, hw/wgmma/wgmma_ops.cuh
//! cargo run -p tcgen05-hw-cases -- check   # exit 1 when the committed files are stale
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let cases = match tcgen05_hw_cases::cases() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = match tcgen05_hw_cases::render_cases(&cases) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ops = tcgen05_hw_cases::render_ops(&cases);
    let tma = match tcgen05_hw_cases::tma::tma_cases() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let e2e = match tcgen05_hw_cases::e2e::e2e_cases() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let files = [
        (root().join("hw/cases/wgmma.txt"), text),
        (root().join("hw/wgmma/wgmma_ops.cuh"), ops),
        (
            root().join("hw/cases/tma.txt"),
            tcgen05_hw_cases::tma::render_tma_cases(&tma),
        ),
        (
            root().join("hw/cases/e2e.txt"),
            tcgen05_hw_cases::e2e::render_e2e_cases(&e2e),
        ),
    ];
    match mode.as_str() {
        "write" => {
            for (path, body) in &files {
                if let Err(e) = std::fs::write(path, body) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
            let wrong = cases.iter().filter(|c| !c.expect_match).count();
            println!(
                "{} cases ({} correct, {} wrong descriptors), {} wgmma shapes",
                cases.len(),
                cases.len() - wrong,
                wrong,
                tcgen05_hw_cases::ops(&cases).len()
            );
            let mut refuting = std::collections::BTreeMap::new();
            for c in cases.iter().filter(|c| c.expect_match) {
                match c.refuted_readings() {
                    Ok(rs) => {
                        for r in rs {
                            *refuting.entry(r.name()).or_insert(0) += 1;
                        }
                    }
                    Err(e) => {
                        eprintln!("error: {}: {e}", c.name);
                        return ExitCode::FAILURE;
                    }
                }
            }
            println!("{} TMA cases", tma.len());
            println!(
                "{} end-to-end cases ({} differ)",
                e2e.len(),
                e2e.iter().filter(|c| !c.agree).count()
            );
            for (r, n) in refuting {
                println!("{n} correct cases would read other addresses under the {r} reading");
            }
            ExitCode::SUCCESS
        }
        "check" => {
            let mut ok = true;
            for (path, body) in &files {
                let on_disk = std::fs::read_to_string(path).unwrap_or_default();
                if &on_disk != body {
                    eprintln!(
                        "error: {} is not what the generator writes now",
                        path.display()
                    );
                    ok = false;
                }
            }
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("usage: tcgen05-hw-cases write|check");
            ExitCode::from(2)
        }
    }
}
