import type { Authorizer, RoutePermission } from '../http/authorizer.ts';
import { authenticationError } from '../http/authentication-error.ts';
import { isSystemContext } from '../entities/system-context.ts';
import { authorizeOperation } from './authorize-operation.ts';
import type { OperationCaller } from './operation-caller.ts';

/**
 * Who may run an operation: anyone (`public`: sign-in, registration, the visitors' chat), any
 * signed-in caller (`signedIn`: own password, own jobs; the operation then narrows what they
 * reach), or the holders of every permission listed (each with its alternatives, e.g. :manage).
 */
export type OperationAccess = 'public' | 'signedIn' | readonly RoutePermission[];

/** What a transport and the route list read of an operation without running it. */
export interface OperationAccessCheck {
  readonly access: OperationAccess;
  /** The operation's own access decision alone (401/403), before any input is read. */
  admit(caller: OperationCaller): Promise<void>;
}

/**
 * One operation of a feature: access first (allow, or the 401/403 every transport answers with),
 * then its work, which may narrow further (a tenant's records, the caller's own jobs). Transports
 * only read their wire format into `input` and write the result back.
 */
export interface Operation<Input = unknown, Output = unknown> extends OperationAccessCheck {
  (caller: OperationCaller, input: Input): Promise<Output>;
}

export type DefineOperation = <Input, Output>(access: OperationAccess, work: (caller: OperationCaller, input: Input) => Promise<Output>) => Operation<Input, Output>;

const ADMIT_ANYONE = async (): Promise<void> => {};

/**
 * The definer of a server's operations, bound to its authorizer (server/identity's permission
 * authorizer unless the server is given another). Built once per server; the check of each
 * operation is chosen once, when it is defined, so a call does no more than the check it needs.
 * system() passes every check: the explicit override for features acting on their own behalf.
 */
export function operationDefiner(authorizer: Authorizer): DefineOperation {
  return <Input, Output>(access: OperationAccess, work: (caller: OperationCaller, input: Input) => Promise<Output>): Operation<Input, Output> => {
    const admit = admission(authorizer, access);
    const operation =
      access === 'public'
        ? (caller: OperationCaller, input: Input) => work(caller, input)
        : async (caller: OperationCaller, input: Input) => {
            await admit(caller);
            return work(caller, input);
          };
    return Object.assign(operation, { access, admit });
  };
}

function admission(authorizer: Authorizer, access: OperationAccess): (caller: OperationCaller) => Promise<void> {
  if (access === 'public') return ADMIT_ANYONE;
  if (access === 'signedIn') {
    return async ({ context }) => {
      if (context.userId === null && !isSystemContext(context)) throw authenticationError(context);
    };
  }
  if (access.length === 0) throw new Error('operationDefiner: a permission access lists no permission; use "public" or "signedIn" instead');
  if (access.length === 1) {
    const [required] = access;
    return (caller) => authorizeOperation(authorizer, caller, required);
  }
  return async (caller) => {
    for (const required of access) await authorizeOperation(authorizer, caller, required);
  };
}

/** How the route list and the OpenAPI document name an access: 'public', 'authenticated' or the (first) permission. */
export function accessName(access: OperationAccess): string {
  if (access === 'public') return 'public';
  if (access === 'signedIn') return 'authenticated';
  return access[0].permission;
}
