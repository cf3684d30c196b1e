/* xoshiro128** reference (Blackman & Vigna, prng.di.unimi.it/xoshiro128starstar.c), seeded by SplitMix32. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint32_t s[4];
static inline uint32_t rotl(const uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
uint32_t next(void) {
  const uint32_t result = rotl(s[1] * 5, 7) * 9;
  const uint32_t t = s[1] << 9;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}
static uint32_t sm;
uint32_t splitmix32(void) {
  uint32_t z = (sm += 0x9e3779b9u);
  z = (z ^ (z >> 16)) * 0x85ebca6bu;
  z = (z ^ (z >> 13)) * 0xc2b2ae35u;
  return z ^ (z >> 16);
}
int main(int argc, char **argv) {
  sm = (uint32_t)strtoul(argv[1], 0, 10);
  for (int i = 0; i < 4; i++) s[i] = splitmix32();
  int n = atoi(argv[2]);
  for (int i = 0; i < n; i++) printf("%u%s", next(), i + 1 < n ? "," : "\n");
}
