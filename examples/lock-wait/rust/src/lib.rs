//! lock-wait: worker threads fetch items from a slow service, fingerprint
//! them and add them to one shared tally, guarded by a mutex.
//!
//! `slow::add` fetches the item and computes its fingerprint while it
//! holds the lock, so the other threads wait for it, off the CPU;
//! `fast::add` does both first and holds the lock for the additions only. The tally's totals do not
//! depend on the order of the additions, so both print the same line, the
//! same as the C version's.

use std::sync::Mutex;

pub mod fast;
pub mod slow;

/// The number of workers; the main thread is one of them.
pub const THREADS: u64 = 4;

/// What the tally keeps: sums that do not depend on the order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    pub count: u64,
    pub sum: u64,
    pub squares: u64,
}

impl Sums {
    fn add(&mut self, d: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(d);
        self.squares = self.squares.wrapping_add(d.wrapping_mul(d));
    }
}

/// The shared tally.
#[derive(Default)]
pub struct Tally {
    sums: Mutex<Sums>,
}

impl Tally {
    pub fn sums(&self) -> Sums {
        *self.sums.lock().unwrap()
    }
}

/// The round trip to the slow service, in microseconds.
pub const FETCH_US: u64 = 200;

/// Fetches an item from the slow service: the thread waits FETCH_US
/// microseconds, off the CPU (a sleep stands for the network here).
#[inline(always)]
pub fn fetch_item(item: u64) -> u64 {
    std::thread::sleep(std::time::Duration::from_micros(FETCH_US));
    item
}

/// The fingerprint of one item: deterministic, a microsecond or two; the
/// same function as the C version's.
#[inline(always)]
pub fn item_digest(item: u64) -> u64 {
    let mut h = item.wrapping_mul(0x9e3779b97f4a7c15).wrapping_add(1);
    for i in 0..1000u64 {
        h = (h ^ (h >> 29)).wrapping_mul(0xbf58476d1ce4e5b9).wrapping_add(i);
    }
    h
}

/// Adds items [0, THREADS * n) with `add`, from THREADS threads.
pub fn fill(add: fn(&Tally, u64), threads: u64, n: u64) -> Sums {
    let tally = Tally::default();
    std::thread::scope(|s| {
        for t in 1..threads {
            let tally = &tally;
            s.spawn(move || (0..n).for_each(|k| add(tally, t * n + k)));
        }
        (0..n).for_each(|k| add(&tally, k));
    });
    tally.sums()
}

/// Runs the workload with `add`; returns the process exit status.
pub fn main(add: fn(&Tally, u64)) -> i32 {
    let items: i64 = match std::env::args().nth(1) {
        None => 1000,
        Some(s) => s.parse().unwrap_or(0),
    };
    if items <= 0 {
        eprintln!("usage: before [ITEMS]");
        return 2;
    }
    let s = fill(add, THREADS, items as u64);
    println!(
        "lock-wait: {} items, digest sum {:016x}, squares {:016x}",
        s.count, s.sum, s.squares
    );
    0
}

#[cfg(test)]
mod tests {
    use super::{fast, fill, item_digest, slow};

    #[test]
    fn digests() {
        assert_ne!(item_digest(1), item_digest(2));
        assert_eq!(item_digest(7), item_digest(7));
    }

    #[test]
    fn one_thread_same_tally() {
        let s = fill(slow::add, 1, 20);
        assert_eq!(s, fill(fast::add, 1, 20));
        assert_eq!(s.count, 20);
    }

    #[test]
    fn four_threads_same_tally() {
        let s = fill(slow::add, 4, 50);
        let f = fill(fast::add, 4, 50);
        assert_eq!(s, f);
        assert_eq!(f, fill(fast::add, 1, 200));
    }
}
