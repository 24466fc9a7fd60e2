// fgsym fixture: Rust, std only. It writes an fgrecord stream whose frames
// are the first bytes of some of its own functions, found through
// /proc/self/maps, so that the test knows the name each must get. Each
// frame is a sample of its own, so that it is a leaf and is looked up at
// its own address.
use std::fmt;

/// What std::hint::black_box does (stable only since Rust 1.66; Debian 12
/// has 1.63): the volatile read of a copy hides the value from the
/// optimiser. Inlined, so that it adds no frame to the profile.
#[inline(always)]
fn black_box<T>(x: T) -> T {
    let y = unsafe { std::ptr::read_volatile(&x) };
    std::mem::forget(x);
    y
}

mod engine {
    pub struct Engine {
        pub n: u64,
    }

    impl Engine {
        #[inline(never)]
        pub fn run(&self) -> u64 {
            (0..self.n).map(|x| x * x).sum()
        }
    }

    #[inline(never)]
    pub fn total<T: Copy + Into<u64>>(v: &[T]) -> u64 {
        v.iter().map(|&x| x.into()).sum()
    }
}

impl fmt::Display for engine::Engine {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "engine {}", self.n)
    }
}

fn base() -> usize {
    let exe = std::env::current_exe().unwrap();
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    for line in maps.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() >= 6 && f[2] == "00000000" && std::path::Path::new(f[5]) == exe {
            let start = f[0].split('-').next().unwrap();
            return usize::from_str_radix(start, 16).unwrap();
        }
    }
    panic!("no mapping of the executable");
}

fn main() {
    let e = engine::Engine { n: black_box(10) };
    let v: Vec<u32> = black_box(vec![1, 2, 3]);
    black_box(e.run());
    black_box(engine::total(&v));
    black_box(format!("{}", e));
    let fns: [usize; 3] = [
        engine::Engine::run as fn(&engine::Engine) -> u64 as usize,
        engine::total::<u32> as fn(&[u32]) -> u64 as usize,
        <engine::Engine as fmt::Display>::fmt
            as fn(&engine::Engine, &mut fmt::Formatter) -> fmt::Result as usize,
    ];
    let b = base();
    let exe = std::env::current_exe().unwrap();
    println!("# fgrecord 1");
    // One sample per function: each is a leaf, looked up at its address.
    for f in fns.iter() {
        println!("rs {}/{} [000] 1.000001: 1 cpu-clock:", std::process::id(), std::process::id());
        println!("\t{:16x} [unknown] ({})", f - b, exe.display());
        println!();
    }
}
