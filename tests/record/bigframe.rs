// bigframe.rs: the Rust twin of bigframe.c. main calls outer, whose frame
// holds a 1 MiB array on the stack (written and read through volatile
// accesses, so that the compiler keeps it); outer calls the hot work five
// calls below it. SECONDS of the thread's CPU time (argv[1], 1 by
// default). Rust 1.63 (Debian 12): no std::hint::black_box (1.66).
use std::ptr::{read_volatile, write_volatile};

/// What std::hint::black_box does: the volatile read of a copy hides the
/// value from the optimiser. Inlined, so that it adds no frame.
#[inline(always)]
fn black_box<T>(x: T) -> T {
    let y = unsafe { read_volatile(&x) };
    std::mem::forget(x);
    y
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

fn cpu() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // CLOCK_THREAD_CPUTIME_ID
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 + ts.nsec as f64 / 1e9
}

#[inline(never)]
fn hot(end: f64) -> u64 {
    let mut sum = 0u64;
    while cpu() < end {
        for i in 0..100_000u64 {
            sum = black_box(sum.wrapping_add(i));
        }
    }
    sum
}

#[inline(never)]
fn level4(end: f64) -> u64 {
    black_box(hot(end)) + 1
}

#[inline(never)]
fn level3(end: f64) -> u64 {
    black_box(level4(end)) + 1
}

#[inline(never)]
fn level2(end: f64) -> u64 {
    black_box(level3(end)) + 1
}

#[inline(never)]
fn level1(end: f64) -> u64 {
    black_box(level2(end)) + 1
}

#[inline(never)]
fn outer(end: f64) -> u64 {
    let mut big = [1u8; 1 << 20];
    // SAFETY: both in bounds; volatile, so the array stays in the frame.
    unsafe { write_volatile(&mut big[black_box(1 << 19)], 2) };
    let r = level1(end);
    r + unsafe { read_volatile(&big[(1 << 19) + (r as usize & 1)]) } as u64
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let end = cpu() + secs;
    println!("{}", outer(end));
}
