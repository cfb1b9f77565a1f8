//! What each [`HazardKind`] means and where its rule comes from, for `tcgen05 explain KIND`
//! (the CLI renders this table; the core's rule tables cannot name the interpreter's kinds).

use super::HazardKind;

impl HazardKind {
    /// Every kind, in declaration order.
    pub const ALL: [HazardKind; 16] = [
        HazardKind::DataRace,
        HazardKind::ReadBeforeComplete,
        HazardKind::WriteBeforeComplete,
        HazardKind::MissingProxyFence,
        HazardKind::MbarrierCount,
        HazardKind::ExpectTx,
        HazardKind::WaitParity,
        HazardKind::Deadlock,
        HazardKind::TmemLeak,
        HazardKind::DeallocInUse,
        HazardKind::MissingRelinquish,
        HazardKind::PairLaunch,
        HazardKind::PairDeallocEarly,
        HazardKind::DsmemAfterExit,
        HazardKind::PairAllocUnjoined,
        HazardKind::MissingTcgen05Fence,
    ];

    /// The kind named `name` ([`HazardKind::name`], case-insensitive, also as SARIF's
    /// `hazard.NAME`), if any.
    #[must_use]
    pub fn parse(name: &str) -> Option<HazardKind> {
        let lower = name.trim().to_ascii_lowercase();
        let bare = lower.strip_prefix("hazard.").unwrap_or(&lower);
        HazardKind::ALL.into_iter().find(|k| k.name() == bare)
    }

    /// What a finding of this kind says happened, and where it is reported.
    #[must_use]
    pub const fn meaning(self) -> &'static str {
        match self {
            HazardKind::DataRace => "two accesses of a byte of shared or global memory, at least one a write, with no happens-before between them (program order, bar.sync and named barriers, mbarrier phases, cluster barriers); also between CTAs of a cluster. Two atomics whose scopes include each other's thread do not race; an atomic and an unordered plain access do (a CAS loop's plain first read excepted, rules.md I13). An mbarrier operation (arrive, wait, tcgen05.commit, the issue of a copy completing on it) not ordered after the mbarrier's init is one too. Unordered stores of the same value are not reported (rules.md I11), nor the lanes of one warp-instruction (I1). At the later access, with the earlier one's line.",
            HazardKind::ReadBeforeComplete => "a read of bytes an asynchronous operation writes before its completion was observed: shared memory a tensor copy fills, read before a wait observed its mbarrier phase; Tensor Memory an MMA writes, read by tcgen05.ld before the wait on its tcgen05.commit's phase; cells a tcgen05.st writes, read before tcgen05.wait::st; global bytes a bulk store or reduction writes, read before the thread's cp.async.bulk.wait_group covers it. At the read, with the operation's line.",
            HazardKind::WriteBeforeComplete => "a write over bytes or cells an asynchronous operation still reads or writes: a shared-memory stage refilled while the MMA reading it is not known complete, or while the tensor copy that filled it is still in flight; cells a tcgen05.ld still reads (not yet waited, rules.md I12) written by an MMA, tcgen05.st, tcgen05.cp or shift; the shared source of a bulk store written before cp.async.bulk.wait_group.read. At the write, with the operation's line.",
            HazardKind::MissingProxyFence => "a generic-proxy write of shared memory read by the async proxy (a wgmma or tcgen05.mma operand, a bulk store's shared source, the global bytes a tensor or bulk copy reads) with no fence.proxy.async by the writer between the write and the synchronisation, nor by the issuing thread between the synchronisation and the issue. At the MMA, with the write's line.",
            HazardKind::MbarrierCount => "an mbarrier.init count outside 1 to 2^20 - 1; a phase that got some arrivals and can get no more (the count higher than the arrivals); or an arrival on a phase whose pending arrival count is already zero (more arrivals than the count). At the init, with the arrival's line.",
            HazardKind::ExpectTx => "a phase whose expect_tx transaction bytes differ from the bytes its copies delivered, so it never completes. At the arrive.expect_tx, with the copy's line.",
            HazardKind::WaitParity => "a wait that passed on a phase before the one that delivers the data read after it (the parity waited for names an earlier phase). At the wait, with the access's line.",
            HazardKind::Deadlock => "every live warp blocked (polling an mbarrier whose phase cannot change, at a barrier whose count never arrives) with nothing asynchronous pending: a hang on the GPU. At the first blocked warp's line; the message names each warp's (and each diverged lane group's) line and what it waits for.",
            HazardKind::TmemLeak => "Tensor Memory still allocated when its CTA exits. At the tcgen05.alloc.",
            HazardKind::DeallocInUse => "a tcgen05.dealloc of columns a tcgen05.ld not yet waited reads. At the dealloc, with the ld's line.",
            HazardKind::MissingRelinquish => "a CTA allocated Tensor Memory and exited without tcgen05.relinquish_alloc_permit. At the first alloc.",
            HazardKind::PairLaunch => "a tcgen05.alloc.cta_group::2 before its warp synchronised with any thread of the peer CTA: the peer may not be launched. At the alloc, with both CTA ranks.",
            HazardKind::PairDeallocEarly => "a tcgen05.dealloc.cta_group::2 not ordered after the peer's tcgen05.alloc.cta_group::2, or freeing cells an MMA, tcgen05.ld or tcgen05.st accessed that the deallocating warp has not observed complete. At the dealloc, with both CTA ranks.",
            HazardKind::DsmemAfterExit => "an ld/st.shared::cluster of another CTA's shared memory not ordered before that CTA's exit (a .relaxed barrier does not order it), or made after it. At the access.",
            HazardKind::PairAllocUnjoined => "a tcgen05.alloc.cta_group::2 the other CTA of the pair never executed: on a GPU the allocating warp waits forever. At the alloc, with both ranks.",
            HazardKind::MissingTcgen05Fence => "two tcgen05 accesses of a Tensor Memory cell ordered only through a relaxed synchronisation lacking tcgen05.fence::after_thread_sync in the waiting thread or before_thread_sync in the arriving one. At the later access, with the earlier one's line, naming the missing fence.",
        }
    }

    /// The rule's source: PTX ISA sections and rules.md rulings.
    #[must_use]
    pub const fn source(self) -> &'static str {
        match self {
            HazardKind::DataRace => "PTX ISA 8 (memory consistency model: conflicting accesses with no causality order are a data race), 9.7.13.15 (mbarrier.init), 9.7.13.4 (fence.mbarrier_init); rules.md I1, I11, I13",
            HazardKind::ReadBeforeComplete => "PTX ISA 9.7.13.15 (mbarrier complete_tx), 9.7.16.6 and 9.7.16.11.1 (tcgen05.commit); rules.md I6, I8",
            HazardKind::WriteBeforeComplete => "PTX ISA 9.7.13.15 (mbarrier complete_tx), 9.7.16.6 and 9.7.16.11.1 (tcgen05.commit), 9.7.16.8.5 (tcgen05.wait::ld), 9.7.16.6.4.5; rules.md I6, I12",
            HazardKind::MissingProxyFence => "PTX ISA 9.7.13.4 (fence.proxy.async: generic-proxy writes need a proxy fence before the async proxy reads them)",
            HazardKind::MbarrierCount => "PTX ISA 9.7.13.15 (mbarrier.init: count 1 to 2^20 - 1; a phase completes when its pending arrivals and tx-count reach zero)",
            HazardKind::ExpectTx => "PTX ISA 9.7.13.15 (mbarrier: a phase completes when the pending arrivals and the tx-count reach zero; complete_tx)",
            HazardKind::WaitParity => "PTX ISA 9.7.13.15 (mbarrier.test_wait/try_wait.parity: the parity names the phase waited for)",
            HazardKind::Deadlock => "PTX ISA 9.7.13.1 (bar.sync) and 9.7.13.15 (mbarrier.try_wait): a wait no arrival can satisfy",
            HazardKind::TmemLeak => "PTX ISA 9.7.16.7.1 (tcgen05.alloc/dealloc: all Tensor Memory a CTA allocated must be deallocated before it exits)",
            HazardKind::DeallocInUse => "PTX ISA 9.7.16.7.1, 9.7.16.8.5 (tcgen05.dealloc of columns a tcgen05.ld still reads: wait::ld first), 9.7.16.6.4.5; rules.md I12",
            HazardKind::MissingRelinquish => "PTX ISA 9.7.16.7.1 (tcgen05.relinquish_alloc_permit); rules.md I5",
            HazardKind::PairLaunch => "PTX ISA 9.7.16.7.1; rules.md I7; NVIDIA/cutlass#3316",
            HazardKind::PairDeallocEarly => "PTX ISA 9.7.16.7.1; rules.md I7, I8; NVIDIA/cutlass#3435",
            HazardKind::DsmemAfterExit => "CUDA C++ Programming Guide (distributed shared memory: a CTA's shared memory must not be accessed after it exits)",
            HazardKind::PairAllocUnjoined => "PTX ISA 9.7.16.7.1; rules.md I3",
            HazardKind::MissingTcgen05Fence => "PTX ISA 9.7.16.6.3, 9.7.16.6.4 (tcgen05.fence::before_thread_sync / after_thread_sync); rules.md I9",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::HazardKind;

    /// `ALL` holds each kind once and every kind (an exhaustive match numbers them), and each
    /// parses back from its name.
    #[test]
    fn every_kind_is_listed_once_and_parses_from_its_name() {
        let index = |k: HazardKind| match k {
            HazardKind::DataRace => 0,
            HazardKind::ReadBeforeComplete => 1,
            HazardKind::WriteBeforeComplete => 2,
            HazardKind::MissingProxyFence => 3,
            HazardKind::MbarrierCount => 4,
            HazardKind::ExpectTx => 5,
            HazardKind::WaitParity => 6,
            HazardKind::Deadlock => 7,
            HazardKind::TmemLeak => 8,
            HazardKind::DeallocInUse => 9,
            HazardKind::MissingRelinquish => 10,
            HazardKind::PairLaunch => 11,
            HazardKind::PairDeallocEarly => 12,
            HazardKind::DsmemAfterExit => 13,
            HazardKind::PairAllocUnjoined => 14,
            HazardKind::MissingTcgen05Fence => 15,
        };
        for (i, k) in HazardKind::ALL.into_iter().enumerate() {
            assert_eq!(index(k), i, "{k:?}");
            assert_eq!(HazardKind::parse(k.name()), Some(k));
            assert_eq!(
                HazardKind::parse(&format!("HAZARD.{}", k.name().to_uppercase())),
                Some(k)
            );
            assert!(!k.meaning().is_empty() && !k.source().is_empty());
        }
        assert_eq!(HazardKind::parse("data_race"), None);
    }
}
