import Strata

/// Models of the fixture stores that have no Xcode model file, written out in code from what
/// the fixtures hold (see `SOURCES.md`).
enum CodeBuiltFixtureModels {
    /// CoreDataPlus `SampleModel2` as its store `SampleModel2_V1.sqlite` records it in
    /// `Z_MODELCACHE` (the model was built in code upstream). `version` 2 is the model of
    /// `SampleModel2_V2.sqlite`: `Book.cover` renamed `frontCover`, `Author.siteURL` removed.
    static func sampleModel2(version: Int) -> ManagedObjectModel {
        func attribute(_ name: String, _ type: AttributeType, optional: Bool = false) -> AttributeDescription {
            AttributeDescription(name: name, type: type, isOptional: optional)
        }
        var writer = EntityDescription(name: "Writer", isAbstract: true, attributes: [attribute("age", .integer16)])
        writer.className = "Writer"
        var author = EntityDescription(name: "Author", superentityName: "Writer", uniquenessConstraints: [["alias"]])
        author.attributes =
            [attribute("alias", .string)] + (version == 1 ? [attribute("siteURL", .uri, optional: true)] : [])
        author.relationships = [
            .toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade, maxCount: -1)
        ]
        author.fetchedProperties = [
            FetchedPropertyDescription(name: "feedbacks", destinationEntityName: "Feedback"),
            FetchedPropertyDescription(
                name: "favFeedbacks", destinationEntityName: "Feedback", userInfo: ["search": "great"]),
        ]
        var cover = attribute(version == 1 ? "cover" : "frontCover", .transformable)
        cover.valueTransformerName = "CoverTransformer"
        cover.renamingIdentifier = "cover"
        var pagesCount = attribute("pagesCount", .integer64, optional: true)
        pagesCount.derivationExpression = "pages.@count"
        var title = attribute("title", .string)
        title.minLength = 3
        title.maxLength = 50
        let book = EntityDescription(
            name: "Book",
            attributes: [
                attribute("uniqueID", .uuid), attribute("price", .decimal), pagesCount, attribute("publishedAt", .date),
                title, cover,
            ],
            relationships: [
                .toOne("author", destination: "Author", inverse: "books", isOptional: false),
                .toMany(
                    "pages", destination: "Page", inverse: "book", deleteRule: .cascade, isOptional: false,
                    minCount: 1, maxCount: 10000),
            ],
            uniquenessConstraints: [["uniqueID"]])
        var isBlackAndWhite = attribute("isBlackAndWhite", .boolean)
        isBlackAndWhite.defaultValue = .boolean(false)
        let graphicNovel = EntityDescription(
            name: "GraphicNovel", superentityName: "Book", attributes: [isBlackAndWhite])
        let feedback = EntityDescription(
            name: "Feedback",
            attributes: [
                attribute("bookID", .uuid), attribute("comment", .string, optional: true),
                attribute("authorAlias", .string), attribute("rating", .double),
            ])
        var isBookmarked = attribute("isBookmarked", .boolean)
        isBookmarked.defaultValue = .boolean(false)
        var content = attribute("content", .transformable)
        content.valueTransformerName = "ContentTransformer"
        let page = EntityDescription(
            name: "Page", attributes: [isBookmarked, attribute("number", .integer32), content],
            relationships: [.toOne("book", destination: "Book", inverse: "pages", isOptional: false)])
        return ManagedObjectModel(
            entities: [author, book, feedback, graphicNovel, page, writer],
            configurations: ["SampleConfigurationV1": ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"]])
    }

    /// Apple's 2010 iPhoneCoreDataRecipes model, read from its Xcode 3 `elements` archive, as
    /// the store `Recipes.sqlite` (framework version 241) was made with it. In this old
    /// format an optional to-one relationship has a minimum count of 1.
    static func recipes() -> ManagedObjectModel {
        func string(_ name: String, optional: Bool = true) -> AttributeDescription {
            AttributeDescription(name: name, type: .string, isOptional: optional)
        }
        func image(_ name: String) -> AttributeDescription {
            var attribute = AttributeDescription(name: name, type: .transformable)
            attribute.valueTransformerName = "ImageToDataTransformer"
            return attribute
        }
        func toOne(
            _ name: String, _ destination: String, _ inverse: String, optional: Bool = true, cascade: Bool = false
        )
            -> RelationshipDescription
        {
            RelationshipDescription(
                name: name, destinationEntityName: destination, inverseName: inverse, isToMany: false,
                isOrdered: false, minCount: 1, maxCount: 1, deleteRule: cascade ? .cascade : .nullify,
                isOptional: optional)
        }
        var ingredientName = string("name", optional: false)
        ingredientName.defaultValue = .string("Ingredient Name")
        let recipe = EntityDescription(
            name: "Recipe",
            attributes: [
                string("prepTime"), string("instructions"), string("name"), image("thumbnailImage"), string("overview"),
            ],
            relationships: [
                toOne("type", "RecipeType", "recipes"),
                .toMany("ingredients", destination: "Ingredient", inverse: "recipe", deleteRule: .cascade),
                toOne("image", "Image", "recipe", cascade: true),
            ])
        let ingredient = EntityDescription(
            name: "Ingredient",
            attributes: [
                ingredientName,
                AttributeDescription(
                    name: "displayOrder", type: .integer16, isOptional: false, defaultValue: .integer16(0)),
                string("amount"),
            ],
            relationships: [toOne("recipe", "Recipe", "ingredients")])
        let recipeType = EntityDescription(
            name: "RecipeType", attributes: [string("name")],
            relationships: [.toMany("recipes", destination: "Recipe", inverse: "type")])
        let imageEntity = EntityDescription(
            name: "Image", attributes: [image("image")],
            relationships: [toOne("recipe", "Recipe", "image", optional: false)])
        return ManagedObjectModel(entities: [recipe, ingredient, recipeType, imageEntity])
    }
}
