//! The CPU time of the calling thread, for benchmarks on a shared machine: wall time grows
//! with the load of other work, the time this thread spent on a CPU much less.

/// Seconds the calling thread has run on a CPU (Linux: `/proc/thread-self/schedstat`, in
/// nanoseconds), or `None` where that is not available.
pub fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Runs `f` and returns (wall seconds, CPU seconds of this thread; 0 when unknown).
pub fn timed(f: impl FnOnce()) -> (f64, f64) {
    let cpu = thread_cpu_seconds();
    let t = std::time::Instant::now();
    f();
    let wall = t.elapsed().as_secs_f64();
    let used = match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => 0.0,
    };
    (wall, used)
}
