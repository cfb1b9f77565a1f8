//! The wgmma grammar (`tcgen05::ptx::wgmma`, PTX ISA 9.7.15): `parse(write(x)) == x` over every
//! enumerated form, `write(parse(line)) == line` (modulo whitespace) over every wgmma line of
//! the committed Hopper kernels (`hw/run/**/*.ptx`, Triton 3.9.0 for sm_90a, run on an H100),
//! mutated lines refused, and (with `PTXAS` set) the enumerated forms certified by ptxas.
#![cfg(feature = "alloc")]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tcgen05::ptx::wgmma::{shape_of, SHAPE_K};
use tcgen05::ptx::{parse_wgmma, DType, MmaAsync, Value, Wgmma, WgmmaType};
use tcgen05::ptx_reader::read;

/// `%f0` ... `%f127`: the accumulator registers of the enumerated forms.
fn regs() -> &'static [&'static str] {
    static R: OnceLock<Vec<&'static str>> = OnceLock::new();
    R.get_or_init(|| {
        (0..128)
            .map(|i| &*Box::leak(format!("%f{i}").into_boxed_str()))
            .collect()
    })
}

/// Every typed `mma_async` form the grammar spells: each shape, `.satfinite` or not, each
/// type triple, the three immediate patterns, `scale-d` a register or an immediate by shape; `d` of the
/// length the dtype gives (capped at the register table).
fn enumerate() -> Vec<MmaAsync<'static>> {
    let mut out = Vec::new();
    for v in 0..(32 * SHAPE_K.len() as u16) {
        let (n, k) = shape_of(v);
        // scale-d a predicate register for even shape values, an immediate for odd ones.
        let scale_d = if v % 2 == 0 {
            Value::Reg("%p1")
        } else {
            Value::Imm(1)
        };
        for satfinite in [false, true] {
            for dtype in DType::ALL {
                let len = if dtype == DType::F16 { n / 4 } else { n / 2 };
                for atype in WgmmaType::ALL {
                    for btype in WgmmaType::ALL {
                        for (imm_scale, imm_trans) in [
                            (None, None),
                            (Some((1, -1)), None),
                            (Some((-1, 1)), Some((0, 1))),
                        ] {
                            out.push(MmaAsync {
                                n,
                                k,
                                satfinite,
                                dtype,
                                atype,
                                btype,
                                d: &regs()[..len.max(1) as usize],
                                a_desc: "%rd1",
                                b_desc: "%rd2",
                                scale_d,
                                imm_scale,
                                imm_trans,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

fn text_of(w: &Wgmma<'_>) -> String {
    let mut s = String::new();
    w.write(&mut s).expect("write");
    s
}

#[test]
fn parse_of_write_is_the_form_for_every_enumerated_form() {
    let forms = enumerate();
    let mut legal = 0;
    for m in &forms {
        let line = text_of(&Wgmma::MmaAsync(*m));
        let module = read(line.as_bytes());
        let parsed = parse_wgmma(&module.functions[0].instructions[0])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(parsed.instruction(), Wgmma::MmaAsync(*m), "{line}");
        legal += usize::from(m.validate().is_ok());
    }
    for w in [
        Wgmma::Fence,
        Wgmma::CommitGroup,
        Wgmma::WaitGroup(0),
        Wgmma::WaitGroup(7),
    ] {
        let line = text_of(&w);
        let module = read(line.as_bytes());
        let parsed = parse_wgmma(&module.functions[0].instructions[0]).expect("parses");
        assert_eq!(parsed.instruction(), w, "{line}");
    }
    println!(
        "wgmma round trip: {} mma_async forms ({legal} legal) and 4 others",
        forms.len()
    );
    assert_eq!(forms.len(), 96 * 2 * 3 * 49 * 3);
}

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("hw/run") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

/// The wgmma lines of the committed Hopper kernels.
fn corpus_lines() -> Vec<String> {
    let mut files = Vec::new();
    corpus_files(Path::new("../../hw/run"), &mut files);
    files.sort();
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        lines.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| l.starts_with("wgmma."))
                .map(String::from),
        );
    }
    lines
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn write_of_parse_is_every_hopper_corpus_line() {
    let lines = corpus_lines();
    let mut mma = 0;
    for line in &lines {
        let module = read(line.as_bytes());
        let form = parse_wgmma(&module.functions[0].instructions[0])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut back = String::new();
        form.write(&mut back).expect("write");
        assert_eq!(squash(&back), squash(line));
        if let Wgmma::MmaAsync(m) = form.instruction() {
            assert_eq!(m.validate(), Ok(()), "{line}");
            mma += 1;
        }
    }
    println!(
        "wgmma corpus: {} lines ({mma} mma_async) read and written back",
        lines.len()
    );
    assert!(lines.len() >= 60 && mma >= 40, "{} lines", lines.len());
}

/// Mutations of each corpus `mma_async` line, each of which the grammar refuses.
fn mutations(line: &str) -> Vec<String> {
    let (op, rest) = line.split_once(' ').expect("operands");
    let q: Vec<&str> = op.split('.').collect();
    let join = |q: &[&str]| format!("{} {rest}", q.join("."));
    let mut out = Vec::new();
    for i in 1..q.len() {
        let mut m = q.clone();
        m.remove(i);
        out.push(join(&m)); // a qualifier left out
        let mut m = q.clone();
        m.insert(i, q[i]);
        out.push(join(&m)); // written twice
        let mut m = q.clone();
        let typo = format!("{}x", q[i]);
        m[i] = &typo;
        out.push(join(&m)); // misspelled
    }
    let mut m = q.clone();
    m.swap(4, 5);
    out.push(join(&m)); // out of order
    let body = rest.trim_end_matches(';');
    out.push(format!("{op} {body}, 1;")); // one operand too many (odd immediates or extra)
    let (head, _) = body.rsplit_once(',').expect("operands");
    out.push(format!("{op} {head};")); // the last operand left out
    out.push(format!(
        "{op} %r1, {}",
        body.split_once("}, ").expect("d").1
    )); // d not a vector
    out
}

#[test]
fn mutated_corpus_lines_are_refused() {
    let mut refused = 0;
    for line in corpus_lines()
        .iter()
        .filter(|l| l.starts_with("wgmma.mma_async"))
    {
        for m in mutations(line) {
            let module = read(m.as_bytes());
            let Some(ins) = module
                .functions
                .first()
                .and_then(|f| f.instructions.first())
            else {
                continue;
            };
            let parsed = parse_wgmma(ins);
            let legal = matches!(&parsed, Ok(f) if matches!(f.instruction(),
                Wgmma::MmaAsync(x) if x.validate().is_ok()));
            assert!(!legal, "{m}: accepted");
            refused += 1;
        }
    }
    println!("wgmma mutations: {refused} refused");
    assert!(refused > 500);
}

/// With `PTXAS` naming ptxas 13.5 (`.cache/kernels-venv/.../nvidia/cu13/bin/ptxas`, installed
/// by `conformance/kernels/setup.sh`): a sample of the enumerated forms, each in a kernel of
/// its own for `sm_90a` at the form's PTX ISA version ([`MmaAsync::introduced`]), assembles
/// exactly when [`MmaAsync::validate`] accepts it. `WGMMA_PTXAS_ONLY=TEXT` keeps the lines
/// that contain TEXT (the whole sample is 10,584 ptxas runs).
#[test]
#[ignore = "needs ptxas 13.5: PTXAS=... cargo test --test wgmma_grammar -- --ignored"]
fn ptxas_agrees_on_a_sample_of_the_enumerated_forms() {
    let ptxas = std::env::var("PTXAS").expect("PTXAS names ptxas 13.5");
    let work = std::env::temp_dir().join(format!("wgmma-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work dir");
    let forms = enumerate();
    let (mut assembled, mut refused, mut disagree) = (0, 0, Vec::new());
    // Every form with N in {8, 40, 48, 256}: each type triple, each
    // shape K, each immediate pattern, .satfinite or not.
    let sample = forms.iter().filter(|m| [8, 40, 48, 256].contains(&m.n));
    let only = std::env::var("WGMMA_PTXAS_ONLY").unwrap_or_default();
    let sample = sample.filter(|m| text_of(&Wgmma::MmaAsync(**m)).contains(&only));
    let mut early = 0;
    for (i, m) in sample.enumerate() {
        let ok = assembles(&ptxas, &work.join(format!("f{i}.ptx")), m, m.introduced());
        if ok {
            assembled += 1;
        } else {
            refused += 1;
        }
        let line = text_of(&Wgmma::MmaAsync(*m));
        if ok != m.validate().is_ok() {
            disagree.push(format!("{line} ptxas {ok} model {:?}", m.validate()));
        }
        // A legal form is refused below the version that introduced it.
        if ok && m.introduced() > 80 {
            early += 1;
            if assembles(&ptxas, &work.join(format!("e{i}.ptx")), m, 80) {
                disagree.push(format!("{line} assembles at PTX ISA 8.0"));
            }
        }
    }
    std::fs::remove_dir_all(&work).ok();
    println!(
        "ptxas 13.5 sm_90a: {assembled} assembled, {refused} refused, {early} legal forms \
         refused at PTX ISA 8.0, {} disagreements",
        disagree.len()
    );
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

/// Whether ptxas assembles `m` alone in a kernel for `sm_90a` at PTX ISA `version`.
fn assembles(ptxas: &str, file: &Path, m: &MmaAsync<'_>, version: u8) -> bool {
    let line = text_of(&Wgmma::MmaAsync(*m));
    let d = match m.dtype {
        DType::F16 => ".reg .f16x2 %f<128>;",
        DType::F32 => ".reg .f32 %f<128>;",
        DType::S32 => ".reg .s32 %f<128>;",
    };
    let ptx = format!(
        ".version {}.{}\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{{\n{d}\n\
         .reg .b64 %rd<4>;\n.reg .pred %p<2>;\nsetp.eq.u64 %p1, %rd1, 0;\n{line}\nret;\n}}\n",
        version / 10,
        version % 10,
    );
    std::fs::write(file, ptx).expect("write");
    let ok = std::process::Command::new(ptxas)
        .args(["-arch=sm_90a", "-o"])
        .arg(file.with_extension("cubin"))
        .arg(file)
        .output()
        .expect("ptxas runs")
        .status
        .success();
    std::fs::remove_file(file).ok();
    std::fs::remove_file(file.with_extension("cubin")).ok();
    ok
}
