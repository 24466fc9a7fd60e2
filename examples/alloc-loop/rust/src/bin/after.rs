fn main() {
    std::process::exit(alloc_loop::main(alloc_loop::fast::find_pair));
}
