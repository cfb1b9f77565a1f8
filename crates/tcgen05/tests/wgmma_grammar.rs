//! The wgmma grammar (`tcgen05::ptx::wgmma`, PTX ISA 9.7.15): `parse(write(x)) == x` over every
//! enumerated form, `write(parse(line)) == line` (modulo whitespace) over every wgmma line of
//! the committed Hopper kernels (`hw/run/**/*.ptx`, Triton 3.9.0 for sm_90a, run on an H100),
//! mutated lines refused, and (with `PTXAS` set) the enumerated forms certified by ptxas.
#![cfg(feature = "alloc")]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tcgen05::ptx::wgmma::{shape_of, SHAPE_K};
use tcgen05::ptx::{parse_wgmma, DType, MmaAsync, Value, Wgmma, WgmmaA, WgmmaSparsity, WgmmaType};
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

/// A's registers where A is in registers, and the sparsity metadata register.
const A_REGS: [&str; 4] = ["%a0", "%a1", "%a2", "%a3"];
const META: &str = "%m1";

/// Where A comes from and whether the form is sparse.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    Dense,
    DenseRegs,
    Sparse(u64),
    SparseRegs(u64),
}

/// The trailing immediates: (imm-scale, imm-trans-a, imm-trans-b).
type Imms = (Option<(i64, i64)>, Option<i64>, Option<i64>);
const IMMS: [Imms; 4] = [
    (None, None, None),
    (Some((1, -1)), None, None),
    (Some((-1, 1)), Some(0), Some(1)),
    (Some((1, 1)), None, Some(0)),
];

/// The form of these choices (`d` of the length the dtype gives, capped at the register
/// table; scale-d a predicate register for even shape values, an immediate for odd ones).
#[allow(clippy::too_many_arguments)]
fn form(
    v: u16,
    satfinite: bool,
    dtype: DType,
    (atype, btype): (WgmmaType, WgmmaType),
    (imm_scale, imm_trans_a, imm_trans_b): Imms,
    variant: Variant,
    op: bool,
) -> MmaAsync<'static> {
    let (n, k) = shape_of(v);
    let len = if dtype == DType::F16 { n / 4 } else { n / 2 };
    let scale_d = if v % 2 == 0 {
        Value::Reg("%p1")
    } else {
        Value::Imm(1)
    };
    // A in registers takes no imm-trans-a, and with A in shared memory imm-trans-b comes after
    // it: the grammar spells no other form (the trailing immediates are positional).
    let in_regs = matches!(variant, Variant::DenseRegs | Variant::SparseRegs(_));
    let imm_trans_a = match (in_regs, imm_trans_b) {
        (true, _) => None,
        (false, Some(_)) => imm_trans_a.or(Some(1)),
        (false, None) => imm_trans_a,
    };
    let (a, sparse) = match variant {
        Variant::Dense => (WgmmaA::Desc("%rd1"), None),
        Variant::DenseRegs => (WgmmaA::Regs(&A_REGS), None),
        Variant::Sparse(selector) => (WgmmaA::Desc("%rd1"), Some(selector)),
        Variant::SparseRegs(selector) => (WgmmaA::Regs(&A_REGS), Some(selector)),
    };
    MmaAsync {
        n,
        k,
        satfinite,
        dtype,
        atype,
        btype,
        op_and: op,
        popc: op,
        d: &regs()[..len.max(1) as usize],
        a,
        b_desc: "%rd2",
        sparse: sparse.map(|selector| WgmmaSparsity {
            meta: META,
            selector,
        }),
        scale_d,
        imm_scale,
        imm_trans_a,
        imm_trans_b,
    }
}

/// Every type pair.
fn pairs() -> impl Iterator<Item = (WgmmaType, WgmmaType)> {
    WgmmaType::ALL
        .into_iter()
        .flat_map(|a| WgmmaType::ALL.into_iter().map(move |b| (a, b)))
}

/// The typed `mma_async` forms: every shape value of every K, `.satfinite` or not, each dtype,
/// each type pair, each pattern of trailing immediates, dense with A in shared memory
/// (160 * 2 * 3 * 64 * 4 forms); and at N 8 and 48 (every K) the same with A in registers,
/// sparse (selector 0 and 1), sparse with A in registers, each with or without `.and.popc`,
/// and dense with A in shared memory with `.and.popc`.
fn enumerate() -> Vec<MmaAsync<'static>> {
    let mut out = Vec::new();
    for v in 0..(32 * SHAPE_K.len() as u16) {
        let (n, _) = shape_of(v);
        let mut variants = vec![(Variant::Dense, false)];
        if [8, 48].contains(&n) {
            variants.push((Variant::Dense, true));
            for variant in [
                Variant::DenseRegs,
                Variant::Sparse(0),
                Variant::Sparse(1),
                Variant::SparseRegs(0),
                Variant::SparseRegs(1),
            ] {
                variants.extend([(variant, false), (variant, true)]);
            }
        }
        for satfinite in [false, true] {
            for dtype in DType::ALL {
                for types in pairs() {
                    for imms in IMMS {
                        for &(variant, op) in &variants {
                            out.push(form(v, satfinite, dtype, types, imms, variant, op));
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
    assert_eq!(forms.len(), (150 + 10 * 12) * 2 * 3 * 64 * 4);
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

/// Whether the grammar refuses `line` or validation refuses what it reads.
fn refused(line: &str) -> bool {
    let module = read(line.as_bytes());
    let Some(ins) = module
        .functions
        .first()
        .and_then(|f| f.instructions.first())
    else {
        return true;
    };
    !matches!(parse_wgmma(ins), Ok(f) if matches!(f.instruction(),
        Wgmma::MmaAsync(x) if x.validate().is_ok()))
}

#[test]
fn mutated_corpus_lines_are_refused() {
    let mut refused_count = 0;
    for line in corpus_lines()
        .iter()
        .filter(|l| l.starts_with("wgmma.mma_async"))
    {
        for m in mutations(line) {
            assert!(refused(&m), "{m}: accepted");
            refused_count += 1;
        }
    }
    println!("wgmma mutations: {refused_count} refused");
    assert!(refused_count > 500);
}

/// The legal forms of the enumeration that the Hopper corpus does not have (A in registers,
/// `.sp`, `.b1`), at N = 8 without `.satfinite` (whose removal leaves a legal form): each
/// mutation of each is refused.
#[test]
fn mutated_register_sparse_and_b1_forms_are_refused() {
    let forms: Vec<_> = enumerate()
        .into_iter()
        .filter(|m| {
            m.n == 8
                && !m.satfinite
                && m.validate().is_ok()
                && (m.sparse.is_some()
                    || matches!(m.a, WgmmaA::Regs(_))
                    || m.atype == WgmmaType::B1)
        })
        .collect();
    let mut refused_count = 0;
    for m in &forms {
        for line in mutations(&text_of(&Wgmma::MmaAsync(*m))) {
            assert!(refused(&line), "{line}: accepted");
            refused_count += 1;
        }
    }
    // A in two registers: read, and refused by validation (ptxas 13.5: "Argument vector size
    // mismatch").
    let two =
        "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%f0,%f1,%f2,%f3}, {%a0,%a1}, %rd2, %p1;";
    assert!(refused(two));
    println!(
        "wgmma register, sparse and b1 forms: {} legal, {refused_count} mutations refused",
        forms.len()
    );
    assert!(forms.len() >= 50 && refused_count > 1000, "{}", forms.len());
}

/// The first certification's sample (10,584 forms): dense, A in shared memory, no `.b1`, N in
/// {8, 40, 48, 256}, K 16, 8 or 32, the first three immediate patterns.
fn first_sample(m: &MmaAsync<'_>) -> bool {
    let imms = (m.imm_scale, m.imm_trans_a, m.imm_trans_b);
    m.sparse.is_none()
        && matches!(m.a, WgmmaA::Desc(_))
        && !m.op_and
        && ![m.atype, m.btype].contains(&WgmmaType::B1)
        && [8, 40, 48, 256].contains(&m.n)
        && [16, 8, 32].contains(&m.k)
        && IMMS[..3].contains(&imms)
}

/// The second certification's sample: A in registers, `.sp` (selector 0 and 1) and `.b1`
/// (`.and.popc` written for every type pair with A in shared memory), at N = 8 (and N = 48 for
/// `.s32`), K the A type's dense or sparse one, twelve type pairs (the eight alike, e4m3.e5m2,
/// s8.u8, f16.bf16, b1.s8), `.satfinite` only with `.s32`.
fn second_sample(m: &MmaAsync<'_>) -> bool {
    use WgmmaType::{Bf16, E4m3, E5m2, B1, F16, S8, U8};
    let new = m.sparse.is_some() || matches!(m.a, WgmmaA::Regs(_)) || m.op_and;
    let b1 = [m.atype, m.btype].contains(&B1);
    let pair = m.atype == m.btype
        || [(E4m3, E5m2), (S8, U8), (F16, Bf16), (B1, S8)].contains(&(m.atype, m.btype));
    let dense_desc = m.sparse.is_none() && matches!(m.a, WgmmaA::Desc(_));
    (new || b1)
        && (m.op_and == (m.atype == B1) || dense_desc)
        && (m.n == 8 || (m.n == 48 && m.dtype == DType::S32))
        && pair
        && [m.atype.k(), 2 * m.atype.k()].contains(&m.k)
        && (!m.satfinite || m.dtype == DType::S32)
}

/// With `PTXAS` naming ptxas 13.5 (`.cache/ptxas-venv/.../nvidia/cu13/bin/ptxas`, installed by
/// `conformance/ptxas/setup.sh`): a sample of the enumerated forms, each in a kernel of its
/// own for `sm_90a` at the form's PTX ISA version ([`MmaAsync::introduced`]), assembles
/// exactly when [`MmaAsync::validate`] accepts it, and a legal form introduced after PTX ISA
/// 8.0 is refused at the version before its own. `WGMMA_PTXAS_SAMPLE=first` or `second` runs
/// one of the two samples ([`first_sample`], 10,584 forms; [`second_sample`]), both by
/// default; `WGMMA_PTXAS_ONLY=TEXT` keeps the lines that contain TEXT. Two ptxas at a time.
#[test]
#[ignore = "needs ptxas 13.5: PTXAS=... cargo test --test wgmma_grammar -- --ignored"]
fn ptxas_agrees_on_a_sample_of_the_enumerated_forms() {
    let ptxas = std::env::var("PTXAS").expect("PTXAS names ptxas 13.5");
    let work = std::env::temp_dir().join(format!("wgmma-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work dir");
    let which = std::env::var("WGMMA_PTXAS_SAMPLE").unwrap_or_default();
    let only = std::env::var("WGMMA_PTXAS_ONLY").unwrap_or_default();
    let sample: Vec<_> = enumerate()
        .into_iter()
        .filter(|m| match which.as_str() {
            "first" => first_sample(m),
            "second" => second_sample(m),
            _ => first_sample(m) || second_sample(m),
        })
        .filter(|m| text_of(&Wgmma::MmaAsync(*m)).contains(&only))
        .collect();
    let half = sample.len().div_ceil(2);
    let results: Vec<(usize, usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let jobs: Vec<_> = sample
            .chunks(half.max(1))
            .enumerate()
            .map(|(t, chunk)| {
                let (ptxas, work) = (&ptxas, &work);
                s.spawn(move || certify(ptxas, &work.join(format!("t{t}")), chunk))
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("worker"))
            .collect()
    });
    std::fs::remove_dir_all(&work).ok();
    let (mut assembled, mut refused, mut early, mut disagree) = (0, 0, 0, Vec::new());
    for (a, r, e, d) in results {
        assembled += a;
        refused += r;
        early += e;
        disagree.extend(d);
    }
    println!(
        "ptxas 13.5 sm_90a: {} forms, {assembled} assembled, {refused} refused, {early} legal \
         forms refused at the PTX ISA version before their own, {} disagreements",
        sample.len(),
        disagree.len()
    );
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

/// ptxas's verdicts on `forms` against the model's: (assembled, refused, legal forms refused
/// one version early, disagreements).
fn certify(ptxas: &str, work: &Path, forms: &[MmaAsync<'_>]) -> (usize, usize, usize, Vec<String>) {
    std::fs::create_dir_all(work).expect("work dir");
    let (mut assembled, mut refused, mut early, mut disagree) = (0, 0, 0, Vec::new());
    for (i, m) in forms.iter().enumerate() {
        let ok = assembles(ptxas, &work.join(format!("f{i}.ptx")), m, m.introduced());
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
            if assembles(
                ptxas,
                &work.join(format!("e{i}.ptx")),
                m,
                m.introduced() - 1,
            ) {
                disagree.push(format!(
                    "{line} assembles at PTX ISA {}",
                    m.introduced() - 1
                ));
            }
        }
    }
    (assembled, refused, early, disagree)
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
         .reg .b64 %rd<4>;\n.reg .b32 %a<4>;\n.reg .b32 %m<2>;\n.reg .pred %p<2>;\n\
         setp.eq.u64 %p1, %rd1, 0;\n{line}\nret;\n}}\n",
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
