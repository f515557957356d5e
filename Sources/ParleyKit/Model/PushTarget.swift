import ParleyAPI

/// Where the server wakes this device when messages wait (Web Push, APNs or FCM), as the server's API defines it;
/// named here so an app needs only ParleyKit.
public typealias PushTarget = ParleyAPI.PushTarget

/// A device's push target, whether the server can wake it and the server's providers.
public typealias PushTargetStatus = ParleyAPI.PushTargetStatus
