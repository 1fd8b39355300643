/*
 * nop: the small static program microbench's fork_exec row runs
 * (fork + execve + waitpid); it exits at once with status 0.
 */
int main(void)
{
	return 0;
}
