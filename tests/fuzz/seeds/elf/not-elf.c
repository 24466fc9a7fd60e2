static inline int sq(int x) { return x * x; }
int __attribute__((noinline)) work(int n) { int s = 0; for (int i = 0; i < n; i++) s += sq(i); return s; }
int main(int argc, char **argv) { (void)argv; return work(argc * 1000) & 1; }
