/* The evidence behind POWF_MARGIN (protogym_classic_control/vector/squares.py), run by
   test_cc_vector_squares.py's slow test: for every float32 x in [-2, 2] (Pendulum's clipped
   torques), compare the C library's powf(x, 2), which numpy uses for `np.float32(x) ** 2`,
   with the correctly rounded square. Prints how many differ and how far (in ulps of the gap
   toward the exact square) the farthest of those lies from a rounding midpoint, and writes
   each x that differs to the file named by argv[1], as raw float32.

   Build with -fno-builtin: a compiler may otherwise turn powf(x, 2) into x * x. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static volatile float two = 2.0f;

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s MISMATCHES_FILE\n", argv[0]);
        return 2;
    }
    FILE *out = fopen(argv[1], "wb");
    if (out == NULL) {
        perror(argv[1]);
        return 1;
    }
    uint64_t tried = 0, differ = 0;
    double farthest = 0.0;
    for (uint32_t magnitude = 0; magnitude <= 0x40000000u; magnitude++) { /* +0 .. 2.0 */
        for (uint32_t sign = 0; sign <= 1; sign++) {
            uint32_t bits = magnitude | (sign << 31);
            float x;
            memcpy(&x, &bits, sizeof x);
            double exact = (double)x * (double)x; /* 48 bits: exact in double */
            float rounded = (float)exact;         /* correctly rounded */
            float power = powf(x, two);
            tried++;
            if (memcmp(&rounded, &power, sizeof rounded) == 0) continue;
            differ++;
            fwrite(&x, sizeof x, 1, out);
            double error = exact - (double)rounded;
            float next = nextafterf(rounded, error > 0 ? INFINITY : -INFINITY);
            double distance = 0.5 - error / ((double)next - (double)rounded);
            if (distance > farthest) farthest = distance;
        }
    }
    fclose(out);
    printf("tried %llu differ %llu farthest %.9g\n", (unsigned long long)tried,
           (unsigned long long)differ, farthest);
    return 0;
}
