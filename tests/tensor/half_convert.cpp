// Reads raw float32 words from argv[1]; writes half_t bits then bfloat16_t bits (uint16 each) to
// argv[2]. Driven by tests/tensor/test_half_torch.py.
#include <bbx/bbx.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::FILE* in = std::fopen(argv[1], "rb");
  if (!in) return 2;
  std::vector<float> xs;
  float f;
  while (std::fread(&f, 4, 1, in) == 1) xs.push_back(f);
  std::fclose(in);
  std::vector<std::uint16_t> out;
  out.reserve(xs.size() * 2);
  for (float x : xs) out.push_back(bbx::half_t(x).raw());
  for (float x : xs) out.push_back(bbx::bfloat16_t(x).raw());
  // and back: the float of every 16-bit pattern
  std::FILE* o = std::fopen(argv[2], "wb");
  if (!o) return 2;
  std::fwrite(out.data(), 2, out.size(), o);
  for (std::uint32_t h = 0; h < 65536; ++h) {
    float a = float(bbx::half_t::bitcast(std::uint16_t(h)));
    float b = float(bbx::bfloat16_t::bitcast(std::uint16_t(h)));
    std::fwrite(&a, 4, 1, o);
    std::fwrite(&b, 4, 1, o);
  }
  std::fclose(o);
  return 0;
}
