/**
 * midjourney-proxy's actions and how a submit names one.
 * @see https://github.com/novicezk/midjourney-proxy/blob/main/docs/api.md
 */
export const mjAction = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  upscale: 'UPSCALE',
  variation: 'VARIATION',
  reroll: 'REROLL',
  inpaint: 'INPAINT',
  modal: 'MODAL',
  zoom: 'ZOOM',
  customZoom: 'CUSTOM_ZOOM',
  shorten: 'SHORTEN',
  highVariation: 'HIGH_VARIATION',
  lowVariation: 'LOW_VARIATION',
  pan: 'PAN',
  swapFace: 'SWAP_FACE',
  upload: 'UPLOAD',
  edits: 'EDITS',
} as const;

/** How a submit route finds its action: fixed, or read from the body of a follow-up on an earlier task. */
export type SubmitKind = 'fixed' | 'change' | 'simple-change' | 'action' | 'modal';

export interface SubmitRoute {
  /** The path after the mode prefix, e.g. `/mj/submit/imagine`. */
  readonly path: string;
  readonly kind: SubmitKind;
  /** The action of a `fixed` route. */
  readonly action?: string;
  /** Only Midjourney Proxy Plus (type 5) serves it. */
  readonly plusOnly: boolean;
}

export const submitRoutes: readonly SubmitRoute[] = [
  { path: '/mj/submit/imagine', kind: 'fixed', action: mjAction.imagine, plusOnly: false },
  { path: '/mj/submit/describe', kind: 'fixed', action: mjAction.describe, plusOnly: false },
  { path: '/mj/submit/blend', kind: 'fixed', action: mjAction.blend, plusOnly: false },
  { path: '/mj/submit/upload-discord-images', kind: 'fixed', action: mjAction.upload, plusOnly: false },
  { path: '/mj/submit/change', kind: 'change', plusOnly: false },
  { path: '/mj/submit/simple-change', kind: 'simple-change', plusOnly: false },
  { path: '/mj/submit/shorten', kind: 'fixed', action: mjAction.shorten, plusOnly: true },
  { path: '/mj/submit/edits', kind: 'fixed', action: mjAction.edits, plusOnly: true },
  { path: '/mj/insight-face/swap', kind: 'fixed', action: mjAction.swapFace, plusOnly: true },
  { path: '/mj/submit/action', kind: 'action', plusOnly: true },
  { path: '/mj/submit/modal', kind: 'modal', plusOnly: true },
];

/** The mode prefixes new-api accepts before `/mj` (`/mj-fast/mj/submit/imagine`). */
export const modePrefixes = ['', '/mj-fast', '/mj-turbo', '/mj-relax'] as const;

/**
 * The model an action is priced and routed by: `mj_` + the action in lower case, `swap_face` for face
 * swaps, and `mj_uploads` for uploads (the name the channel catalogue and the default prices use).
 */
export function modelOfAction(action: string): string {
  if (action === mjAction.swapFace) return 'swap_face';
  if (action === mjAction.upload) return 'mj_uploads';
  return `mj_${action.toLowerCase()}`;
}

export type ParsedAction = { ok: true; action: string; index: number } | { ok: false; description: string };

/**
 * A Plus button's action from its customId, e.g. `MJ::JOB::upsample::2::<hash>` → UPSCALE 2,
 * `MJ::JOB::variation::1::…` → VARIATION 1, `MJ::Outpaint::50::1::…` → ZOOM, `MJ::Inpaint::…` → INPAINT.
 */
export function actionOfCustomId(customId: string): ParsedAction {
  const parts = customId.split('::');
  const name = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? '';
  const index = Number(parts[3]);
  if (name.includes('upsample'))
    return Number.isInteger(index) ? { ok: true, action: mjAction.upscale, index } : { ok: false, description: 'index_parse_failed' };
  if (name === 'variation') return Number.isInteger(index) ? { ok: true, action: mjAction.variation, index } : { ok: false, description: 'index_parse_failed' };
  if (name === 'low_variation') return { ok: true, action: mjAction.lowVariation, index: 1 };
  if (name === 'high_variation') return { ok: true, action: mjAction.highVariation, index: 1 };
  if (name.includes('pan')) return { ok: true, action: mjAction.pan, index: 1 };
  if (name.includes('reroll')) return { ok: true, action: mjAction.reroll, index: 1 };
  if (name === 'Outpaint') return { ok: true, action: mjAction.zoom, index: 1 };
  if (name === 'CustomZoom') return { ok: true, action: mjAction.customZoom, index: 1 };
  if (name === 'Inpaint') return { ok: true, action: mjAction.inpaint, index: 1 };
  return { ok: false, description: `unknown_action:${customId}` };
}

/** `"<taskId> U2"`, `"<taskId> V1"` or `"<taskId> R"` (simple-change's content). */
export function parseSimpleChange(content: string): { taskId: string; action: string; index: number } | undefined {
  const [taskId, command, extra] = content.trim().split(/\s+/);
  if (!taskId || !command || extra !== undefined) return undefined;
  const lower = command.toLowerCase();
  if (lower === 'r') return { taskId, action: mjAction.reroll, index: 0 };
  const index = Number(lower.slice(1));
  if (lower.length !== 2 || !Number.isInteger(index) || index < 1 || index > 4) return undefined;
  if (lower.startsWith('u')) return { taskId, action: mjAction.upscale, index };
  if (lower.startsWith('v')) return { taskId, action: mjAction.variation, index };
  return undefined;
}
