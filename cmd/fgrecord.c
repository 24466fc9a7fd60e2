#include <err.h>
int main(void) { errx(2, "not built yet"); }
