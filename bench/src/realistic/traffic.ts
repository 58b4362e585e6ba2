import { chatBody } from '../targets/target.ts';
import { type DataSetShape, modelName, tokenKey, zipfExponent } from './dataset-shape.ts';
import { seededRandom, ZipfPicker } from './seeded-random.ts';

/** One request of the mix: whose key it carries and what it asks for. */
export interface PickedRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * The realistic traffic: every request picks its token among the data set's active tokens and its
 * model among the active models, both Zipf distributed (a few busy callers and models, a long tail),
 * with a fixed seed so every row of a run, and every run, sends the same mix in the same order.
 * Headers and bodies are built once up front, so picking costs the load generator next to nothing.
 */
export class RealisticTraffic {
  private readonly tokens: ZipfPicker;
  private readonly models: ZipfPicker;
  private readonly authorizations: string[];
  private readonly bodies: string[];

  constructor(shape: DataSetShape, stream: boolean, seed = 1) {
    const random = seededRandom(seed);
    this.tokens = new ZipfPicker(shape.activeTokens, zipfExponent, random);
    this.models = new ZipfPicker(shape.activeModels, zipfExponent, random);
    this.authorizations = Array.from({ length: shape.activeTokens }, (_, index) => `Bearer sk-${tokenKey(index)}`);
    this.bodies = Array.from({ length: shape.activeModels }, (_, index) => chatBody(modelName(index), stream));
  }

  next(): PickedRequest {
    return {
      headers: { authorization: this.authorizations[this.tokens.pick()] ?? '' },
      body: this.bodies[this.models.pick()] ?? '',
    };
  }
}
