/** User roles, as stored in `users.role`. */
export const Role = {
  guest: 0,
  common: 1,
  admin: 10,
  root: 100,
} as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

/** `users.status`. 3 exists in the data but cannot be enabled from the console. */
export const UserStatus = {
  enabled: 1,
  disabled: 2,
  locked: 3,
} as const;

/** `tokens.status`. */
export const TokenStatus = {
  enabled: 1,
  disabled: 2,
  expired: 3,
  exhausted: 4,
} as const;

/** `channels.status`. */
export const ChannelStatus = {
  unknown: 0,
  enabled: 1,
  manuallyDisabled: 2,
  autoDisabled: 3,
} as const;

/** `redemptions.status`. */
export const RedemptionStatus = {
  unused: 1,
  disabled: 2,
  used: 3,
} as const;

/** `logs.type`. */
export const LogType = {
  unknown: 0,
  topup: 1,
  consume: 2,
  manage: 3,
  system: 4,
  error: 5,
  refund: 6,
} as const;
