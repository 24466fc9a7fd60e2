//! alloc-loop: find the first pair of numbers in a short list that add up
//! to a target.
//!
//! "First" means: the pair (i, j), i < j, with the smallest j, and for
//! that j the smallest i. `slow::find_pair` builds a `HashMap` on every
//! call; `fast::find_pair` scans. Both return the same answer.
//!
//! The driver prints the same line as the C version, for the same ROUNDS.

pub mod fast;
pub mod slow;

/// The length of every list the driver searches.
pub const LIST_LEN: usize = 24;

/// xorshift64, the same generator and seed as the C version.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 32) as u32
    }
}

/// Fills `v` with numbers in [-1000, 1000] and returns a target.
#[inline(never)]
fn make_query(rng: &mut Rng, v: &mut [i32; LIST_LEN]) -> i64 {
    for x in v.iter_mut() {
        *x = (rng.next() % 2001) as i32 - 1000;
    }
    (rng.next() % 4001) as i64 - 2000
}

/// Runs the workload with `find_pair`; returns the process exit status.
pub fn main(find_pair: fn(&[i32], i64) -> Option<(usize, usize)>) -> i32 {
    let rounds: i64 = match std::env::args().nth(1) {
        None => 1_000_000,
        Some(s) => s.parse().unwrap_or(0),
    };
    if rounds <= 0 {
        eprintln!("usage: before [ROUNDS]");
        return 2;
    }
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let mut v = [0i32; LIST_LEN];
    let (mut found, mut checksum) = (0u64, 0u64);
    for _ in 0..rounds {
        let target = make_query(&mut rng, &mut v);
        if let Some((i, j)) = find_pair(&v, target) {
            found += 1;
            checksum = checksum
                .wrapping_mul(31)
                .wrapping_add((i * LIST_LEN + j) as u64);
        }
    }
    println!("alloc-loop: {rounds} queries, {found} pairs found, checksum {checksum:016x}");
    0
}

#[cfg(test)]
mod tests {
    use super::{fast, slow, Rng};

    fn same(v: &[i32], target: i64, want: Option<(usize, usize)>) {
        let s = slow::find_pair(v, target);
        let f = fast::find_pair(v, target);
        assert_eq!(s, f, "slow and fast differ on {v:?} {target}");
        assert_eq!(s, want, "wrong pair for {v:?} {target}");
    }

    #[test]
    fn edge_cases() {
        same(&[], 0, None);
        same(&[7], 14, None);
        same(&[3, 9, 4, 5, 6], 9, Some((2, 3)));
        same(&[3, 9, 4, 5, 6], 15, Some((1, 4)));
        same(&[3, 9, 4, 5, 6], 100, None);
        same(&[5, 5, 5], 10, Some((0, 1)));
        same(&[-4, 10, -6, 2], -10, Some((0, 2)));
        same(&[0, 1, 0], 0, Some((0, 2)));
    }

    #[test]
    fn extremes_do_not_overflow() {
        let ext = [i32::MAX, i32::MIN, i32::MAX, -1];
        same(&ext, i32::MAX as i64 * 2, Some((0, 2)));
        same(&ext, -1, Some((0, 1)));
        same(&ext, 1 << 40, None);
        same(&ext, i64::MIN, None);
    }

    #[test]
    fn random_lists_agree() {
        let mut rng = Rng(88172645463325252);
        for r in 0..20000 {
            let v: Vec<i32> = (0..r % 40).map(|_| (rng.next() % 61) as i32 - 30).collect();
            let t = (rng.next() % 121) as i64 - 60;
            assert_eq!(slow::find_pair(&v, t), fast::find_pair(&v, t), "{v:?} {t}");
        }
    }
}
