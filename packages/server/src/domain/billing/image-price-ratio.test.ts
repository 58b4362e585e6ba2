import { describe, expect, it } from 'vitest';
import { imagePriceRatio } from './image-price-ratio.ts';

describe('image price ratio', () => {
  it('scales DALL·E prices by size', () => {
    expect(imagePriceRatio('dall-e-2', '256x256', '')).toBe(0.4);
    expect(imagePriceRatio('dall-e-2', '512x512', '')).toBe(0.45);
    expect(imagePriceRatio('dall-e-2', '1024x1024', '')).toBe(1);
    expect(imagePriceRatio('dall-e-3', '1792x1024', 'standard')).toBe(2);
    expect(imagePriceRatio('dall-e-3', '1024x1792', '')).toBe(2);
  });

  it('charges dall-e-3 hd twice at 1024² and one and a half times in the wide sizes', () => {
    expect(imagePriceRatio('dall-e-3', '1024x1024', 'hd')).toBe(2);
    expect(imagePriceRatio('dall-e-3', '1792x1024', 'hd')).toBe(3);
    expect(imagePriceRatio('dall-e-2', '1024x1024', 'hd')).toBe(1);
  });

  it('leaves unknown sizes at the plain price', () => {
    expect(imagePriceRatio('gpt-image-1', 'auto', 'high')).toBe(1);
    expect(imagePriceRatio('dall-e-3', '', '')).toBe(1);
  });
});
