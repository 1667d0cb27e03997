/* edge.c: odd source for the --auto test of memprof_annotate */
int x, y, z, w, a_rather_long_variable_name;
void f(void) {	x = 1;	/* tabs */
	x = y + z + w + a_rather_long_variable_name;	/* many variables */
const char *s = "[31m";	/* an escape character */
/* a byte that is not UTF-8: � */
/* wide characters: 変数 */
/* a long line: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx */

int main(void) { return x; }
