import type { SparkFrame } from './spark-api.ts';

type TextItem = NonNullable<NonNullable<NonNullable<SparkFrame['payload']>['choices']>['text']>[number];

/**
 * The frames of one answer as one frame of the same shape, for callers who did not ask for a
 * stream: the text joined, the function call kept, header and usage from the last frame that has
 * them. The answer converter then reads a single frame.
 */
export function mergeSparkFrames(frames: readonly SparkFrame[]): SparkFrame {
  let content = '';
  let functionCall: TextItem['function_call'];
  let header: SparkFrame['header'];
  let usage: NonNullable<SparkFrame['payload']>['usage'];
  for (const frame of frames) {
    header = frame.header ?? header;
    usage = frame.payload?.usage ?? usage;
    for (const item of frame.payload?.choices?.text ?? []) {
      content += item.content ?? '';
      if (item.function_call) functionCall = item.function_call;
    }
  }
  const item: TextItem = { content, role: 'assistant', index: 0 };
  if (functionCall) item.function_call = functionCall;
  return { header, payload: { choices: { status: 2, seq: frames.length - 1, text: [item] }, ...(usage ? { usage } : {}) } };
}
