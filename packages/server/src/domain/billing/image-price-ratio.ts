/**
 * The factor on a per-call image price for the picture's size and quality, as the classic gateway
 * bills DALL·E: 256² 0.4, 512² 0.45, 1024² 1, the wide and tall 1792 sizes 2; dall-e-3 in `hd`
 * quality costs twice as much at 1024² and 1.5 times as much in the wide and tall sizes.
 * Sizes it does not know (other models' sizes, `auto`) cost the plain price.
 */
const sizeRatios: Readonly<Record<string, number>> = {
  '256x256': 0.4,
  '512x512': 0.45,
  '1024x1024': 1,
  '1792x1024': 2,
  '1024x1792': 2,
};

export function imagePriceRatio(model: string, size: string, quality: string): number {
  const sizeRatio = sizeRatios[size] ?? 1;
  if (!model.startsWith('dall-e-3') || quality !== 'hd') return sizeRatio;
  return sizeRatio * (size === '1024x1024' ? 2 : size in sizeRatios ? 1.5 : 1);
}
