/** What the code drawer sends on create (with `count`) and update (the server answers a RedemptionView). */
export interface RedemptionInput {
  name: string;
  quota: number;
}
