// The event argument of `pgw trigger` (any case; the old PAYMENT_CAPTURED answered with its new name).
import { UsageError } from '../../errors.js';
import { isEventType, notAnEvent, type EventType } from '../../events.js';

export function eventTypeArgument(value: string): EventType {
  const name = value.trim().toUpperCase();
  if (!isEventType(name)) throw new UsageError(notAnEvent(name));
  return name;
}
