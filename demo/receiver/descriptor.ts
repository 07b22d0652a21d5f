import type { ReceiverIdentity } from "./identity";
import { descriptorRail, type RailTemplate } from "./rail";

export interface DescriptorOptions {
  name: string;
  rails: readonly RailTemplate[];
  registry?: string;
  profiles?: readonly ("L0" | "L1" | "L2")[];
}

/** `GET /.well-known/stipendex.json` (envelope.md §4): who the receiver is and how it is paid. */
export function buildDescriptor(identity: ReceiverIdentity, options: DescriptorOptions) {
  return {
    stipendex: "descriptor/0.1" as const,
    id: identity.id,
    name: options.name,
    keys: { keys: [identity.publicJwk] },
    rails: options.rails.map(descriptorRail),
    ...(options.registry ? { registry: options.registry } : {}),
    profiles: [...(options.profiles ?? ["L0", "L1", "L2"])],
  };
}
