/** Who and what a captured request was, known once it is answered. */
export interface PayloadFacts {
  readonly requestId: string;
  readonly userId: number;
  readonly tokenId: number;
  readonly createdAt: number;
  readonly stream: boolean;
}

/** One answered request waiting to be written: bodies as the relay had them, not yet redacted or capped. */
export interface PendingPayload extends PayloadFacts {
  readonly request: Buffer;
  readonly requestContentType: string;
  /** The whole answer as sent, or the streamed text the caller got (joined). */
  readonly response: Buffer | string;
  readonly responseContentType: string;
  /** The streamed text went past what is kept in memory: the stored answer is incomplete. */
  readonly responseCut: boolean;
}

/**
 * The bodies of one relayed request whose payload is logged. It only holds references and the
 * caller's streamed text (bounded): parsing, redaction and capping happen later, in the payload
 * queue's flush, off the request's path. Created only when logging is on for the request.
 */
export class PayloadCapture {
  private readonly request: Buffer;
  private readonly requestContentType: string;
  private readonly streamLimit: number;
  private readonly streamParts: string[] = [];
  private streamLength = 0;
  private streamCut = false;
  private answer: Buffer | string | undefined;
  private answerContentType = 'application/json';

  constructor(request: Buffer, requestContentType: string, streamLimit: number) {
    this.request = request;
    this.requestContentType = requestContentType;
    this.streamLimit = streamLimit;
  }

  /** Text of a streamed answer as written to the caller (bound, so the relay can hand it on as is). */
  readonly addStreamText = (text: string): void => {
    if (!text) return;
    if (this.streamLength + text.length > this.streamLimit) {
      this.streamCut = true;
      return;
    }
    this.streamParts.push(text);
    this.streamLength += text.length;
  };

  /** The whole (non-streamed) answer as sent. */
  setAnswer(body: Buffer | string, contentType: string): void {
    this.answer = body;
    this.answerContentType = contentType;
  }

  pending(facts: PayloadFacts): PendingPayload {
    const streamed = this.answer === undefined;
    return {
      ...facts,
      request: this.request,
      requestContentType: this.requestContentType,
      response: streamed ? this.streamParts.join('') : (this.answer ?? ''),
      responseContentType: streamed ? 'text/event-stream' : this.answerContentType,
      responseCut: streamed && this.streamCut,
    };
  }
}
