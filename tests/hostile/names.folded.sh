# names.folded.sh: sourced by t712; hostile_names prints a folded file of
# function names a hostile binary could carry, one stack per line.
hostile_names() {
	printf 'app;<script>alert(1)</script> 2\n'
	printf 'app;x]]>y;</svg><script>alert(2)</script> 3\n'
	printf 'app;q"u'"'"'o&amp;te;" onload="alert(3) 4\n'
	printf 'app;c\001t\033l\177;tab\there 1\n'
	printf 'app;bad\377\376utf8;\300\257overlong;\355\240\200surrogate;\357\277\276nonchar 5\n'
	printf 'app;<!-- c -->;<![CDATA[x]]>;<?pi x?> 2\n'
	printf 'app;javascript:alert(4);&#x3c;script&#x3e;;%%s%%n\\x41 1\n'
	printf 'app;</title></g><a xlink:href="javascript:alert(5)">x</a> 3\n'
	printf 'app;${alert(6)};`x`;\\u003cscript;</script> 2\n'
}
