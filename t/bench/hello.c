/* hello: the startup reference, a dynamically linked hello world. */
#include <stdio.h>

int
main(void)
{
	puts("hello, world");
	return 0;
}
