//! fib-tower: Fibonacci numbers, fib(0) = 0, fib(1) = 1. fib(93) is the
//! largest that fits in a `u64`, so n outside 0..=93 is an error in both
//! versions. `slow::fib` recurses naively (exponential: each call is one
//! more storey of the "flame tower"); `fast::fib` iterates.

pub mod fast;
pub mod slow;

/// The largest n whose Fibonacci number fits in a `u64`.
pub const FIB_MAX: i32 = 93;

/// Runs the workload with `fib`; returns the process exit status.
pub fn main(fib: fn(i32) -> Option<u64>) -> i32 {
    let rounds: i64 = match std::env::args().nth(1) {
        None => 48,
        Some(s) => s.parse().unwrap_or(0),
    };
    if rounds <= 0 {
        eprintln!("usage: before [ROUNDS]");
        return 2;
    }
    let mut sum: u64 = 0;
    for _ in 0..rounds {
        for n in 20..=32 {
            match fib(n) {
                Some(f) => sum = sum.wrapping_add(f),
                None => return 1,
            }
        }
    }
    println!("fib-tower: {rounds} rounds of fib(20..32), sum {sum}");
    0
}

#[cfg(test)]
mod tests {
    use super::{fast, slow, FIB_MAX};

    #[test]
    fn small_n_agree() {
        for n in 0..=27 {
            assert_eq!(slow::fib(n), fast::fib(n), "fib({n})");
        }
        assert_eq!(fast::fib(0), Some(0));
        assert_eq!(fast::fib(1), Some(1));
        assert_eq!(slow::fib(2), Some(1));
        assert_eq!(slow::fib(27), Some(196418));
    }

    #[test]
    fn largest_fits() {
        assert_eq!(fast::fib(FIB_MAX), Some(12200160415121876738));
    }

    #[test]
    fn out_of_range_rejected() {
        for n in [-1, -100, i32::MIN, FIB_MAX + 1, 1000, i32::MAX] {
            assert_eq!(slow::fib(n), None, "slow fib({n})");
            assert_eq!(fast::fib(n), None, "fast fib({n})");
        }
    }
}
