/* The vt unit tests' screen: see fake_vt.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_vt.h"

static struct fake_screen *to_fake(struct vt *vt)
{
	return container_of(vt, struct fake_screen, vt);
}

/* The rectangle width x height at (col, row) lies inside the grid. */
static void check_rect(const struct vt *vt, unsigned int col, unsigned int row,
		       unsigned int width, unsigned int height)
{
	assert_true(width >= 1 && height >= 1);
	assert_true(col < vt->cols && width <= vt->cols - col);
	assert_true(row < vt->rows && height <= vt->rows - row);
}

static void fake_putc(struct vt *vt, unsigned int col, unsigned int row,
		      unsigned char c, uint8_t attr)
{
	struct fake_screen *fs = to_fake(vt);

	check_rect(vt, col, row, 1, 1);
	*fake_screen_cell(fs, col, row) = (struct fake_cell){ c, attr };
	fs->nr_ops++;
}

static void fake_clear(struct vt *vt, unsigned int col, unsigned int row,
		       unsigned int width, unsigned int height, uint8_t attr)
{
	struct fake_screen *fs = to_fake(vt);
	unsigned int x, y;

	check_rect(vt, col, row, width, height);
	for (y = row; y < row + height; y++)
		for (x = col; x < col + width; x++)
			*fake_screen_cell(fs, x, y) = (struct fake_cell){ ' ', attr };
	fs->nr_ops++;
}

static void fake_bmove(struct vt *vt, unsigned int scol, unsigned int srow,
		       unsigned int dcol, unsigned int drow,
		       unsigned int width, unsigned int height)
{
	struct fake_screen *fs = to_fake(vt);
	struct fake_cell *tmp;
	unsigned int x, y;

	check_rect(vt, scol, srow, width, height);
	check_rect(vt, dcol, drow, width, height);
	tmp = malloc(sizeof(*tmp) * width * height);
	assert_non_null(tmp);
	for (y = 0; y < height; y++)
		for (x = 0; x < width; x++)
			tmp[y * width + x] = *fake_screen_cell(fs, scol + x, srow + y);
	for (y = 0; y < height; y++)
		for (x = 0; x < width; x++)
			*fake_screen_cell(fs, dcol + x, drow + y) = tmp[y * width + x];
	free(tmp);
	fs->nr_ops++;
}

static const struct vt_ops fake_vt_ops = {
	.putc = fake_putc,
	.clear = fake_clear,
	.bmove = fake_bmove,
};

void fake_screen_init(struct fake_screen *fs, unsigned int cols, unsigned int rows)
{
	size_t i;

	fs->cells = malloc(sizeof(*fs->cells) * cols * rows);
	assert_non_null(fs->cells);
	for (i = 0; i < (size_t)cols * rows; i++)
		fs->cells[i] = (struct fake_cell){ ' ', VT_ATTR_DEFAULT };
	fs->nr_ops = 0;
	vt_init(&fs->vt, cols, rows, &fake_vt_ops);
}

void fake_screen_free(struct fake_screen *fs)
{
	free(fs->cells);
	fs->cells = NULL;
}

void fake_screen_puts(struct fake_screen *fs, const char *s)
{
	vt_write(&fs->vt, s, strlen(s));
}

struct fake_cell *fake_screen_cell(struct fake_screen *fs, unsigned int col,
				   unsigned int row)
{
	return &fs->cells[(size_t)row * fs->vt.cols + col];
}

char *fake_screen_row(struct fake_screen *fs, unsigned int row, char *buf)
{
	unsigned int col, end = 0;

	for (col = 0; col < fs->vt.cols; col++) {
		buf[col] = (char)fake_screen_cell(fs, col, row)->c;
		if (buf[col] != ' ')
			end = col + 1;
	}
	buf[end] = '\0';
	return buf;
}
