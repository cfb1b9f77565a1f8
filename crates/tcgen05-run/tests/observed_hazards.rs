//! What the hazard checker observes beyond plain loads and stores (issue 25): atomics (`atom`,
//! `red`: morally strong with each other, racing with plain accesses, `.release`/`.acquire`
//! ordering), bulk stores and reductions to global memory with their bulk async-groups, the
//! async proxy's reads of global memory (bulk and tensor copies), `fence.mbarrier_init`, and
//! deadlocks inside a cluster named by CTA rank. Each bug is planted by a rule over the text of
//! a real kernel (`hw/run/breadth`), and found with both lines, threads and the address the
//! text implies; each kernel as written is clean.

mod common;

use tcgen05_run::error::RunError;
use tcgen05_run::hazard::{check, Finding, HazardKind, Options, Report};
use tcgen05_run::{Arg, Config, Module};

use common::inputs::{repo, splitmix};

fn dims(s: &str) -> [u32; 3] {
    let mut d = [1; 3];
    for (i, x) in s.split(',').enumerate() {
        d[i] = x.parse().expect("dimension");
    }
    d
}

/// The launch of kernel `name` of `hw/run/breadth/kernels.txt` (inputs drawn here) and its text.
fn breadth(name: &str) -> (String, Config, Vec<Arg>) {
    let text = std::fs::read_to_string(repo("hw/run/breadth/kernels.txt")).expect("list");
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .expect("listed");
    let f: Vec<&str> = line.split_whitespace().collect();
    let n: usize = f[5].split(':').nth(2).expect("count").parse().expect("n");
    let out: usize = f[6].parse().expect("words");
    let mut s = 1;
    let args = f[7]
        .split(',')
        .map(|a| match a {
            "in" => Arg::Buffer(
                (0..n)
                    .flat_map(|_| ((splitmix(&mut s) % 1000) as u32).to_le_bytes())
                    .collect(),
            ),
            "out" => Arg::Buffer(vec![0; (out + 16) * 4]),
            other => panic!("{name}: argument {other} not drawn here"),
        })
        .collect();
    let config = Config {
        grid: dims(f[1]),
        block: dims(f[2]),
        cluster: dims(f[3]),
        shared: f[4].parse().expect("shared"),
        limits: Default::default(),
    };
    let src =
        std::fs::read_to_string(repo(&format!("hw/run/breadth/ptx/{name}.ptx"))).expect("ptx");
    (src, config, args)
}

fn run(name: &str, src: &str, config: &Config, args: &[Arg], schedules: u32) -> Report {
    let module = Module::read(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut args = args.to_vec();
    check(&module, name, config, &mut args, &Options { schedules })
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The 1-based line of the first line of `src` containing `needle` (comments skipped).
fn line_of(src: &str, needle: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(needle) && !l.trim_start().starts_with("//"))
        .unwrap_or_else(|| panic!("no line with {needle}")) as u32
        + 1
}

/// `src` with the first line containing `needle` replaced by `by` (empty: deleted, the line
/// kept empty so that later lines keep their numbers).
fn replace(src: &str, needle: &str, by: &str) -> String {
    let at = line_of(src, needle) as usize - 1;
    let mut lines: Vec<&str> = src.lines().collect();
    lines[at] = by;
    lines.join("\n")
}

/// `src` with `line` inserted after the first line containing `needle`.
fn insert_after(src: &str, needle: &str, line: &str) -> String {
    let at = line_of(src, needle) as usize;
    let mut lines: Vec<&str> = src.lines().collect();
    lines.insert(at, line);
    lines.join("\n")
}

fn clean(name: &str, r: &Report) {
    assert!(r.findings.is_empty(), "{name}: {:#?}", r.findings);
    assert!(r.deadlock.is_none(), "{name}: {:?}", r.deadlock);
}

fn find(r: &Report, f: impl Fn(&Finding) -> bool) -> Option<&Finding> {
    r.findings.iter().find(|x| f(x))
}

/// cluster16: every thread's `atom.shared::cluster.add` on rank 0's counter and
/// `red.shared::cluster.max` on another rank's maximum, ordered after thread 0's initialising
/// store by the first `barrier.cluster`. Atomics of `.gpu` scope (the default) do not race
/// with each other; with that barrier relaxed they race with the store (rules: PTX ISA 8,
/// memory consistency model; 9.7.13.2, a relaxed arrival releases nothing); a plain store in
/// place of the `red`, or the `atom` at `.cta` scope (which does not include other CTAs'
/// threads), races.
#[test]
fn atomics_of_cluster16() {
    let (src, config, args) = breadth("cluster16");
    clean("cluster16", &run("cluster16", &src, &config, &args, 2));
    let init = line_of(&src, "st.shared.v2.u32 [%r4]");
    let atom = line_of(&src, "atom.shared::cluster.add");
    let red = line_of(&src, "red.shared::cluster.max");
    let relaxed = replace(
        &src,
        "barrier.cluster.arrive.aligned",
        "\tbarrier.cluster.arrive.relaxed.aligned;",
    );
    let r = run("cluster16", &relaxed, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::DataRace
            && (f.line == atom || f.line == red)
            && f.other_line == Some(init)
            && f.other_thread == Some(0)
            && f.address.is_some_and(|a| a < 8)
            && f.rank != f.other_rank
            && f.message.contains("atomic write")
    });
    assert!(hit.is_some(), "relaxed first barrier: {:#?}", r.findings);
    let plain = replace(
        &src,
        "red.shared::cluster.max",
        "\tst.shared::cluster.u32 [%r11+4], %r7;",
    );
    let r = run("cluster16", &plain, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::DataRace && f.line == red && f.other_line == Some(red)
    });
    assert!(hit.is_some(), "plain store for red: {:#?}", r.findings);
    let cta = replace(
        &src,
        "atom.shared::cluster.add",
        "\tatom.cta.shared::cluster.add.u32 %r9, [%r8], %r7;",
    );
    let r = run("cluster16", &cta, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::DataRace
            && f.line == atom
            && f.other_line == Some(atom)
            && f.rank != f.other_rank
            && f.address == Some(0)
    });
    assert!(hit.is_some(), "atom at .cta scope: {:#?}", r.findings);
}

fn flag() -> (String, Config, Vec<Arg>) {
    let src =
        std::fs::read_to_string(repo("crates/tcgen05-run/tests/atomic/flag.ptx")).expect("ptx");
    let config = Config {
        grid: [1, 1, 1],
        block: [64, 1, 1],
        cluster: [1, 1, 1],
        shared: 0,
        limits: Default::default(),
    };
    (src, config, vec![Arg::Buffer(vec![0; 16])])
}

/// `tests/atomic/flag.ptx`: a release `atom.exch` and an acquire `atom.or` that reads its value
/// order thread 0's store of the data before thread 32's load; either side made `.relaxed`
/// leaves them unordered (PTX ISA 8, memory consistency model: release and acquire patterns).
#[test]
fn release_acquire_flag() {
    let (src, config, args) = flag();
    let r = run("flag", &src, &config, &args, 4);
    clean("flag", &r);
    let mut out = args.clone();
    let module = Module::read(&src).expect("reads");
    tcgen05_run::launch(&module, "flag", &config, &mut out).expect("runs");
    let Arg::Buffer(b) = &out[0] else { panic!() };
    assert_eq!(&b[..4], &1234u32.to_le_bytes());
    let st = line_of(&src, "st.shared.u32 [%r2]");
    let ld = line_of(&src, "ld.shared.u32 %r8");
    for (what, needle, by) in [
        (
            "release",
            "atom.release",
            "\tatom.relaxed.cta.shared.exch.b32 %r6, [%r3], 1;",
        ),
        (
            "acquire",
            "atom.acquire",
            "\tatom.relaxed.cta.shared.or.b32 %r7, [%r3], 0;",
        ),
    ] {
        let copy = replace(&src, needle, by);
        let r = run("flag", &copy, &config, &args, 0);
        let hit = find(&r, |f| {
            f.kind == HazardKind::DataRace
                && f.line == ld
                && f.other_line == Some(st)
                && f.thread == Some(32)
                && f.other_thread == Some(0)
                && f.address == Some(0)
        });
        assert!(hit.is_some(), "{what} relaxed: {:#?}", r.findings);
        assert_eq!(r.findings.len(), 1, "{what}: {:#?}", r.findings);
    }
}

/// bulk_copy: thread 0 copies the 2048-byte buffer to global memory
/// (`cp.async.bulk.global.shared::cta.bulk_group`) and reduces parts of it
/// (`cp.reduce.async.bulk`, every CTA into the same words: atomic per element), then
/// `commit_group` and `wait_group 0`. A store into the buffer, or a load of the copied global
/// words, between the commit and the wait is a hazard against the copy (PTX ISA 9.7.9.25.4);
/// after `wait_group.read 0` the store is fine and the load is not; after `wait_group 0` both
/// are. Without the `fence.proxy.async.shared::cta` the copy reads generic writes unfenced.
#[test]
fn bulk_stores_and_groups() {
    let (src, config, args) = breadth("bulk_copy");
    clean("bulk_copy", &run("bulk_copy", &src, &config, &args, 2));
    let copy = line_of(&src, "cp.async.bulk.global.shared::cta.bulk_group");
    let add = line_of(&src, "bulk_group.add.u32");
    let commit = "cp.async.bulk.commit_group";
    let wait = "cp.async.bulk.wait_group 0";
    let store = "\tst.shared.u32 [%r5], %r1;";
    let load = "\tld.global.u32 %r13, [%rd6];";
    let planted = line_of(&src, commit) + 1;
    let cases: [(&str, String, Option<HazardKind>); 5] = [
        (
            "store before the wait",
            insert_after(&src, commit, store),
            Some(HazardKind::WriteBeforeComplete),
        ),
        (
            "load before the wait",
            insert_after(&src, commit, load),
            Some(HazardKind::ReadBeforeComplete),
        ),
        (
            "load after wait_group.read",
            insert_after(
                &replace(&src, wait, "\tcp.async.bulk.wait_group.read 0;"),
                commit,
                load,
            ),
            Some(HazardKind::ReadBeforeComplete),
        ),
        (
            "store after wait_group.read",
            insert_after(
                &replace(&src, wait, "\tcp.async.bulk.wait_group.read 0;"),
                "wait_group.read",
                store,
            ),
            None,
        ),
        ("load after the wait", insert_after(&src, wait, load), None),
    ];
    for (what, text, kind) in cases {
        let r = run("bulk_copy", &text, &config, &args, 0);
        let Some(kind) = kind else {
            clean(what, &r);
            continue;
        };
        let at = line_of(
            &text,
            if kind == HazardKind::WriteBeforeComplete {
                store.trim()
            } else {
                load.trim()
            },
        );
        assert!(
            at == planted || at == planted + 1,
            "{what}: planted at {at}"
        );
        let hit = find(&r, |f| {
            f.kind == kind
                && f.line == at
                && (f.other_line == Some(copy) || f.other_line == Some(add))
                && f.thread == Some(0)
                && f.other_thread == Some(0)
                && f.source.contains("9.7.9.25.4")
        });
        assert!(hit.is_some(), "{what}: {:#?}", r.findings);
    }
    let st = line_of(&src, "st.shared.u32 [%r10], %r11");
    let unfenced = replace(&src, "fence.proxy.async.shared::cta", "");
    let r = run("bulk_copy", &unfenced, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::MissingProxyFence && f.line == copy && f.other_line == Some(st)
    });
    assert!(hit.is_some(), "fence deleted: {:#?}", r.findings);
}

/// The async proxy's reads of global memory: bulk_copy's `cp.async.bulk.shared::cluster.global`
/// reads `in[ctaid * 1024 ..]`; a generic store there by the issuing thread first needs a proxy
/// fence (PTX ISA 9.7.13.4), and stores by other threads not ordered before the issue race with
/// the copy's read.
#[test]
fn async_proxy_reads_global() {
    let (src, config, args) = breadth("bulk_copy");
    let issue = "cp.async.bulk.shared::cluster.global";
    let before = "mov.u16 %rs1, 3";
    let own = insert_after(&src, before, "\t@%p1 st.global.u32 [%rd4], %r1;");
    let (st, at) = (line_of(&own, "@%p1 st.global"), line_of(&own, issue));
    let r = run("bulk_copy", &own, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::MissingProxyFence
            && f.line == at
            && f.other_line == Some(st)
            && f.message.contains("global")
    });
    assert!(hit.is_some(), "unfenced own store: {:#?}", r.findings);
    let fenced = insert_after(&own, "@%p1 st.global", "\tfence.proxy.async.global;");
    clean(
        "fenced own store",
        &run("bulk_copy", &fenced, &config, &args, 0),
    );
    let all = insert_after(&src, before, "\tst.global.u32 [%rd4+16], %r1;");
    let (st, at) = (
        line_of(&all, "st.global.u32 [%rd4+16]"),
        line_of(&all, issue),
    );
    let r = run("bulk_copy", &all, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::DataRace
            && f.line == at
            && f.other_line == Some(st)
            && f.other_thread != Some(0)
            && f.address.is_some()
    });
    assert!(hit.is_some(), "other threads' stores: {:#?}", r.findings);
}

/// `fence.mbarrier_init.release.cluster` (PTX ISA 9.7.13.4): mbar_remote's rank 1 arrives on
/// rank 0's mbarrier (line 44), bulk_copy's multicast copies complete on the peer's; each init
/// is ordered before them by the fence and a relaxed cluster barrier, or by a release barrier.
/// With neither (fence deleted, barrier relaxed) the remote operation races with the init.
#[test]
fn mbarrier_init_is_published() {
    for (name, remote) in [
        ("mbar_remote", "mbarrier.arrive.release.cluster"),
        ("bulk_copy", "cp.async.bulk.shared::cluster.global"),
    ] {
        let (src, config, args) = breadth(name);
        let init = line_of(&src, "mbarrier.init");
        let at = line_of(&src, remote);
        let fence = "fence.mbarrier_init";
        let arrive = "barrier.cluster.arrive.release.aligned";
        let relaxed = "\tbarrier.cluster.arrive.relaxed.aligned;";
        let no_fence = replace(&src, fence, "");
        clean(name, &run(name, &no_fence, &config, &args, 0));
        clean(
            name,
            &run(name, &replace(&src, arrive, relaxed), &config, &args, 0),
        );
        let both = replace(&no_fence, arrive, relaxed);
        let r = run(name, &both, &config, &args, 0);
        let hit = find(&r, |f| {
            f.kind == HazardKind::DataRace
                && f.line == at
                && f.other_line == Some(init)
                && f.other_thread == Some(0)
                && f.rank != f.other_rank
                && f.message.contains("mbarrier.init")
        });
        assert!(hit.is_some(), "{name}: {:#?}", r.findings);
    }
}

/// A deadlock inside a cluster names each blocked warp's CTA rank and cluster: mbar_remote with
/// rank 1's remote arrival deleted leaves rank 0's two warps polling the mbarrier (line 49) and
/// rank 1's two warps at the final `barrier.cluster.wait` (line 65), in both clusters' first
/// one (CTAs 0 and 1, cluster (0, 0, 0)).
#[test]
fn cluster_deadlock_names_ranks() {
    let (src, config, args) = breadth("mbar_remote");
    let poll = line_of(&src, "mbarrier.try_wait");
    let wait = src
        .lines()
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| l.contains("barrier.cluster.wait"))
        .expect("wait") as u32
        + 1;
    let hung = replace(&src, "mbarrier.arrive.release.cluster", "");
    let r = run("mbar_remote", &hung, &config, &args, 0);
    let Some(RunError::Deadlock { warps, .. }) = &r.deadlock else {
        panic!("no deadlock: {:?}", r.deadlock)
    };
    type Place = (Option<(u32, [u32; 3])>, [u32; 3], u32, u32);
    let got: Vec<Place> = warps
        .iter()
        .map(|w| (w.cluster, w.cta, w.warp, w.line))
        .collect();
    let c = [0, 0, 0];
    assert_eq!(
        got,
        vec![
            (Some((0, c)), [0, 0, 0], 0, poll),
            (Some((0, c)), [0, 0, 0], 1, poll),
            (Some((1, c)), [1, 0, 0], 0, wait),
            (Some((1, c)), [1, 0, 0], 1, wait),
        ]
    );
    let f = find(&r, |f| f.kind == HazardKind::Deadlock).expect("deadlock finding");
    assert_eq!((f.line, f.rank, f.thread), (poll, Some(0), Some(0)));
    assert!(
        f.message.contains(&format!(
            "CTA rank 1 of cluster (0, 0, 0) warp 1 at line {wait}"
        )),
        "{}",
        f.message
    );
    let text = r
        .deadlock
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(
        text.contains("CTA rank 1 (CTA (1, 0, 0) of cluster (0, 0, 0)); warp 0 at line"),
        "{text}"
    );
}

/// atomics.ptx's CAS loop reads its first guess with a plain `ld.global` (line 61), racing with
/// the other threads' `atom.global.cas` of the word (line 64): its own CAS validates the value,
/// so the race is excused (rules.md I13) and the kernel, with its 25 other atomics on global and
/// shared memory, is clean. With the CAS made an `atom.global.max` (no validation) the plain
/// read's race with the atomics is reported.
#[test]
fn cas_loop_first_read() {
    let (src, config, args) = breadth("atomics");
    clean("atomics", &run("atomics", &src, &config, &args, 2));
    let ld = line_of(&src, "ld.global.u32 %r18, [%rd2+48]");
    let cas = line_of(&src, "atom.global.cas.b32");
    let max = replace(
        &src,
        "atom.global.cas.b32",
        "\tatom.global.max.u32 %r20, [%rd2+48], %r19;",
    );
    let r = run("atomics", &max, &config, &args, 0);
    let hit = find(&r, |f| {
        f.kind == HazardKind::DataRace
            && [Some(f.line), f.other_line] == [Some(ld), Some(cas)]
            && f.thread != f.other_thread
            && f.address.is_some_and(|a| a % 4096 == 48)
    });
    assert!(hit.is_some(), "CAS made max: {:#?}", r.findings);
}
