import ParleyAPI

/// The version of this release of Parley (``ParleyAPI/ParleyVersion``), named here so an app needs only ParleyKit.
public typealias ParleyVersion = ParleyAPI.ParleyVersion
