/*
 * fake_swap: the swap totals mm/swapfile.c keeps, for unit tests that
 * link reclaim without the swap areas; each test sets them as it needs.
 */
long nr_swap_pages;
long total_swap_pages;
