import { parseSseBlock, parseSseText, type SseEvent } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type {
  ConvertedResponse,
  ConversionContext,
  NativeAnswer,
  NativeStreamUsage,
  NormalizedUsage,
  PassThroughResponse,
  StreamConverter,
} from '../provider.ts';
import type { AnswerFormat, AnswerStreamWriter, NativeFraming } from './answer-format.ts';
import { JsonArrayFraming } from './json-array-framing.ts';
import { StreamSensitiveCheck, type SensitiveWords } from './sensitive-words.ts';
import { StreamTextCounter } from './token-estimate.ts';

/** What the translator needs to know about the stream it translates (see StreamRelayOptions). */
export interface StreamEventOptions {
  readonly handling: PassThroughResponse | ConvertedResponse;
  readonly dialect: 'chat' | 'responses';
  /** The caller asked for usage in the stream; otherwise a usage-only chunk we forced is hidden. */
  readonly callerWantsUsage: boolean;
  /** For a synthetic usage chunk when the caller asked for usage and the upstream sent none. */
  readonly promptTokensEstimate: number;
  readonly context: ConversionContext;
  /** A caller of another dialect: every OpenAI chunk goes through its writer instead of out as is. */
  readonly answerFormat?: AnswerFormat;
  /** Set when completions are checked for sensitive words (CheckSensitiveOnCompletionEnabled). */
  readonly sensitive?: SensitiveWords;
  /**
   * The caller speaks the vendor's dialect: events go out as the vendor wrote them (no converter, no
   * writer); only the events that carry usage, or name the model when mapping renamed it, are parsed.
   */
  readonly native?: NativeAnswer;
  /** With `native`: the caller's framing when not the vendor's SSE (see AnswerFormat.nativeFraming). */
  readonly nativeFraming?: NativeFraming;
}

/** A frame that may hold usage (`"usage": {`); OpenAI's other frames say `"usage": null` or nothing. */
const carriesUsage = /"usage"\s*:\s*\{/;
/** Frame data held unparsed per stream before it is counted anyway (bounds memory on long answers). */
const maxUncountedLength = 32_768;

/** `data: …` and the blank line that ends an event. */
export function sseFrame(data: string): string {
  return `data: ${data}\n\n`;
}

function hasChoices(value: Record<string, unknown>): boolean {
  return Array.isArray(value.choices) && value.choices.length > 0;
}

/**
 * Turns each upstream event of one streamed answer into what the caller receives, and keeps what the
 * stream reported on the way: its usage, the text it carried (counted locally for when no usage
 * comes), and whether a sensitive word stopped it. Pass-through events are forwarded as the upstream
 * wrote them, and only frames that may carry usage are parsed; converted events go through the
 * provider's converter and, for callers of another dialect, the answer format's writer.
 */
export class StreamEventTranslator {
  /** Usage the upstream reported, once it did (a native stream's is read from its reader). */
  get usage(): NormalizedUsage | undefined {
    return this.nativeUsage ? this.nativeUsage.usage() : this.reportedUsage;
  }
  set usage(usage: NormalizedUsage | undefined) {
    this.reportedUsage = usage;
  }
  private reportedUsage: NormalizedUsage | undefined;
  /** The vendor's own answer for a caller of its dialect (see StreamEventOptions.native). */
  readonly native: NativeAnswer | undefined;
  /** A native stream framed as Google's JSON array: each event's data is one element. */
  readonly arrayFraming: JsonArrayFraming | undefined;
  private readonly nativeUsage: NativeStreamUsage | undefined;
  /** The caller asked for another model name than the upstream's: events naming it are rewritten. */
  private readonly renamesModel: boolean;
  /** The upstream's usage chunk went to the caller as it was (who then needs no synthetic one). */
  usageForwarded = false;
  /** A sensitive word ended the answer: no further event goes out. */
  stoppedBySensitiveWord = false;
  /** The upstream sent `[DONE]`, the last event of an OpenAI-format stream. */
  sawDone = false;
  /** Renders the caller's dialect when it is not OpenAI's. */
  readonly writer: AnswerStreamWriter | undefined;
  private readonly options: StreamEventOptions;
  private readonly converter: StreamConverter | undefined;
  private readonly passThrough: PassThroughResponse | undefined;
  private readonly sensitiveCheck: StreamSensitiveCheck | undefined;
  private readonly counter = new StreamTextCounter();
  /**
   * Forwarded as they are, pass-through frames need no parse unless they carry usage: their text
   * matters only when the upstream reports no usage. They wait here, bounded, and are counted only then.
   */
  private readonly defersCounting: boolean;
  /** Frame data (strings) and runs of whole events forwarded undecoded (Buffers), in arrival order. */
  private uncounted: Array<string | Buffer> = [];
  private uncountedLength = 0;
  /** The answer text of the event being translated (for the sensitive-word check). */
  private eventText = '';

  constructor(options: StreamEventOptions) {
    this.options = options;
    const { handling } = options;
    this.converter = handling.kind === 'convert' && !options.native ? handling.createStreamConverter(options.context) : undefined;
    this.passThrough = handling.kind === 'pass-through' ? handling : undefined;
    // Writers that announce usage up front (Anthropic's message_start) get the upstream's count once
    // a frame reported it, else the prompt estimate: never a zero that clients would take as real.
    this.writer = options.answerFormat?.createStreamWriter(options.context, { usageSoFar: () => this.usageOrEstimate(0) });
    this.sensitiveCheck = options.sensitive ? new StreamSensitiveCheck(options.sensitive) : undefined;
    this.native = options.native;
    this.arrayFraming = options.native && options.nativeFraming === 'json-array' ? new JsonArrayFraming() : undefined;
    this.nativeUsage = options.native?.createStreamUsage();
    this.renamesModel = options.native !== undefined && options.context.model !== options.context.upstreamModel;
    this.defersCounting = (this.passThrough !== undefined || this.native !== undefined) && !this.writer && !this.sensitiveCheck;
  }

  /**
   * Events that need no translation may go to the caller as the upstream wrote them, undecoded
   * (see asWrittenPrefixLength): a plain pass-through, with no dialect writer and no word check.
   */
  get forwardsAsWritten(): boolean {
    // Native events are all looked at (usage may be in any of them, under the dialect's own key).
    return this.defersCounting && this.native === undefined;
  }

  /** Whole events that went to the caller as written: their text is counted only if no usage comes. */
  passedAsWritten(events: Buffer): void {
    if (this.usage === undefined) this.deferCounting(events);
  }

  /** Tokens of the answer text that reached us, counted locally. */
  localCompletionTokens(): number {
    this.countDeferred();
    return this.counter.total();
  }

  /** The reported usage, else the prompt estimate with `completionTokens`. */
  usageOrEstimate(completionTokens: number): NormalizedUsage {
    return this.usage ?? { promptTokens: this.options.promptTokensEstimate, completionTokens };
  }

  /**
   * One complete event block in, the caller's text out, checked for sensitive words when that is on:
   * a hit stops the answer there (the event is not sent) or, when not stopping, is masked in the
   * event. A word split across events is found by the check's carried-over tail; masking covers the
   * part inside this event.
   */
  translate(block: string): string {
    this.eventText = '';
    const out = this.translateEvent(block);
    if (!this.sensitiveCheck || !this.eventText) return out;
    const found = this.sensitiveCheck.inspect(this.eventText);
    if (found.length === 0) return out;
    if (this.options.sensitive?.stops) {
      this.stoppedBySensitiveWord = true;
      // The event's element is dropped: the array's next element (the error) must open it if this did.
      this.arrayFraming?.withdrawLast();
      return '';
    }
    return this.options.sensitive?.mask(out, found) ?? out;
  }

  private translateEvent(block: string): string {
    const event = parseSseBlock(block);
    // A comment or keep-alive: the caller's dialect has no such event (converted, or a JSON array).
    if (!event?.data) return this.converter || this.arrayFraming ? '' : `${block}\n\n`;
    if (event.data === '[DONE]') {
      this.sawDone = true;
      return '';
    }
    if (this.converter) return this.translateConverted(this.converter, event);
    if (this.native) return this.translateNative(this.native, block, event);
    return this.translatePassThrough(block, event.data);
  }

  private translateConverted(converter: StreamConverter, event: SseEvent): string {
    let out = '';
    const chunks = converter.push(event);
    // Before the chunks go out: a writer may announce the usage this very event carried.
    this.usage = converter.usage() ?? this.usage;
    for (const chunk of chunks) {
      if (this.writer) {
        out += this.writer.push(chunk);
        continue;
      }
      const object = chunk as Record<string, unknown>;
      const replaced = object?.usage ? this.withoutForcedUsage(object) : undefined;
      out += replaced ?? sseFrame(JSON.stringify(chunk));
    }
    this.eventText = converter.takeText();
    this.counter.add(this.eventText);
    return out;
  }

  /**
   * One native event: out as it came, its usage read by the dialect's reader. Its text is counted
   * only when no usage has come (deferred, as for pass-through frames), or read now for word checks.
   */
  private translateNative(native: NativeAnswer, block: string, event: SseEvent): string {
    const data = event.data;
    this.nativeUsage?.push(data);
    if (this.sensitiveCheck) {
      const parsed = safeParseJson(data);
      this.eventText = parsed.ok ? native.textOf(parsed.value) : '';
      this.counter.add(this.eventText);
    } else if (!this.nativeUsage?.seen) {
      this.deferCounting(data);
    } else if (this.uncounted.length > 0) {
      this.uncounted = [];
      this.uncountedLength = 0;
    }
    const renamed = this.renamesModel && native.namesModel(data) ? this.withCallerModel(native, data) : undefined;
    if (this.arrayFraming) return this.arrayFraming.element(renamed ?? data);
    if (renamed === undefined) return `${block}\n\n`;
    return `${event.event ? `event: ${event.event}\n` : ''}data: ${renamed}\n\n`;
  }

  /** One event's data naming the upstream's model, renamed to the caller's (JSON), or undefined to send it as is. */
  private withCallerModel(native: NativeAnswer, data: string): string | undefined {
    const parsed = safeParseJson(data);
    const renamed = parsed.ok ? native.withCallerModel(parsed.value, this.options.context.model) : undefined;
    return renamed === undefined ? undefined : JSON.stringify(renamed);
  }

  private translatePassThrough(block: string, data: string): string {
    const asWritten = `${block}\n\n`;
    if (this.defersCounting && !carriesUsage.test(data)) {
      if (this.usage === undefined) this.deferCounting(data);
      return asWritten;
    }
    const parsed = safeParseJson(data);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return this.writer ? '' : asWritten;
    const value = parsed.value as Record<string, unknown>;
    this.eventText = this.passThrough?.extractStreamText(value) ?? '';
    this.counter.add(this.eventText);
    const found = this.passThrough?.extractUsage(value);
    const reported = found !== undefined && (found.promptTokens > 0 || found.completionTokens > 0);
    if (this.writer) {
      if (reported) this.usage = found;
      return this.writer.push(value);
    }
    if (!reported) return asWritten;
    this.usage = found;
    this.uncounted = [];
    this.uncountedLength = 0;
    if (this.options.dialect !== 'chat') return asWritten;
    return this.withoutForcedUsage(value) ?? asWritten;
  }

  /**
   * A chunk carrying usage: forwarded as it is when the caller asked for usage (undefined), else the
   * usage we forced is hidden: the chunk without it, or nothing when it held only usage.
   */
  private withoutForcedUsage(value: Record<string, unknown>): string | undefined {
    if (this.options.callerWantsUsage) {
      this.usageForwarded = true;
      return undefined;
    }
    if (!hasChoices(value)) return '';
    const { usage: _hidden, ...rest } = value;
    return sseFrame(JSON.stringify(rest));
  }

  private deferCounting(dataOrEvents: string | Buffer): void {
    this.uncounted.push(dataOrEvents);
    this.uncountedLength += dataOrEvents.length;
    if (this.uncountedLength >= maxUncountedLength) this.countDeferred();
  }

  private countDeferred(): void {
    for (const item of this.uncounted) {
      if (typeof item === 'string') this.countFrameData(item);
      else for (const event of parseSseText(item.toString())) this.countFrameData(event.data);
    }
    this.uncounted = [];
    this.uncountedLength = 0;
  }

  private countFrameData(data: string): void {
    const parsed = safeParseJson(data);
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null)
      this.counter.add(this.native ? this.native.textOf(parsed.value) : (this.passThrough?.extractStreamText(parsed.value) ?? ''));
  }
}
