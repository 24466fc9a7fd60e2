fn main() {
    std::process::exit(lock_wait::main(lock_wait::fast::add));
}
